"""The `coliseo` command line."""
