"""launchlint: a static analyzer for ML training launch scripts, configs and trainers."""

__version__ = "0.1.0"
