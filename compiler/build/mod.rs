//! The build engine: manifest -> plan -> jobs -> cache.
