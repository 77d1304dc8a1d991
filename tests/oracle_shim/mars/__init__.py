"""The `mars` package as the NumPy oracle sees it: only `mars.tensor` (see tensor/)."""
