//! Small vector, quaternion and matrix helpers (f64 for accumulation).
