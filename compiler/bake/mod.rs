//! Bakers: the in-memory model in, output documents out.
