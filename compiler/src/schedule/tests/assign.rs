//! Worker assignment: balance, locality on a tree reduction, broadcasters.
