# a script with no statements at all is fine

# (nothing to do)
