//! Game records and test-position files: OBF, GGF and WTHOR.
