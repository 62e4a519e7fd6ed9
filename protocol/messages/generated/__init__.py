"""Generated message classes; see josefk.protocol.messages.generator."""
