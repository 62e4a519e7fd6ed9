"""josefk.config: the sample server.properties and log-config.json, shipped as package data."""
