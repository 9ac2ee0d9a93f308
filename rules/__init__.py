"""The rule catalogue: one module per rule (see launchlint.rulekit)."""
