"""The use cases: one function per thing a person does, returning an outcome (saved,
refused with reasons, conflict...). They call the engine (rules/) and keep what it decides;
they never import the web layer."""
