"""Members' ratings (issue 30): the pure model (`model.py`) and the ratings kept beside games."""
