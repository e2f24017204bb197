"""What every request stands on: the database and its models, headers, compression, bodies,
proxies and logs. It knows nothing of the use cases or the web layer's views."""
