"""The web layer: blueprints by feature."""
