"""The research tools: the lab, the writer loop, backtests of history and
the tuning `gate init --from-history` does."""
