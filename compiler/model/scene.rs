//! A scene: a node hierarchy, its skins and its animation clips.
//!
//! Indices are positions in the owning `Vec`s. A `Scene` built by an
//! importer is valid by construction: every index is in range, the
//! hierarchy is a forest (no cycles, at most one parent per node), every
//! value is finite, and every channel's key times strictly increase.

/// Translation, rotation (unit quaternion x, y, z, w) and scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    pub translation: [f32; 3],
    pub rotation: [f32; 4],
    pub scale: [f32; 3],
}

impl Trs {
    pub const IDENTITY: Trs = Trs {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scale: [1.0; 3],
    };
}

/// A node's transform relative to its parent, as the source stated it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LocalTransform {
    Trs(Trs),
    /// Column-major 4x4 matrix (glTF `matrix`). Never animated: glTF
    /// forbids animating a node that has a matrix.
    Matrix([f32; 16]),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The source's name, if it had one (glTF names are optional and need
    /// not be unique).
    pub name: Option<String>,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    pub local: LocalTransform,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    pub name: Option<String>,
    /// Node indices, in palette order.
    pub joints: Vec<usize>,
    /// One column-major 4x4 matrix per joint (identity when the source had
    /// none).
    pub inverse_bind: Vec<[f32; 16]>,
    pub skeleton: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    Step,
    Linear,
    /// Hermite spline; values are stored as (in-tangent, value, out-tangent)
    /// triplets per key.
    CubicSpline,
}

/// What a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Translation,
    Rotation,
    Scale,
    /// Morph target weights; `n` weights per key.
    Weights {
        n: usize,
    },
}

impl Target {
    /// Components per value: 3, 4, 3 or the number of morph weights.
    pub fn width(self) -> usize {
        match self {
            Target::Translation | Target::Scale => 3,
            Target::Rotation => 4,
            Target::Weights { n } => n,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Channel {
    pub node: usize,
    pub target: Target,
    pub interpolation: Interpolation,
    /// Key times in seconds, strictly increasing, finite, at least one.
    pub times_s: Vec<f32>,
    /// `times_s.len() * width` values (times 3 for `CubicSpline`: in-tangent,
    /// value, out-tangent for each key), already converted from normalized
    /// integers to floats.
    pub values: Vec<f32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub name: Option<String>,
    pub channels: Vec<Channel>,
}

impl Clip {
    /// The last key time of any channel (0 for a clip with no keys).
    pub fn duration_s(&self) -> f32 {
        self.channels
            .iter()
            .filter_map(|c| c.times_s.last().copied())
            .fold(0.0, f32::max)
    }
}

/// A node that draws a mesh: glTF's `node.mesh`, with its skin and its
/// morph weights (`node.weights`, which override the mesh's own).
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    pub node: usize,
    pub mesh: usize,
    pub skin: Option<usize>,
    pub morph_weights: Option<Vec<f32>>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub nodes: Vec<Node>,
    /// Root nodes of the default scene (glTF `scene`, else scene 0, else every
    /// parentless node), in order.
    pub roots: Vec<usize>,
    pub skins: Vec<Skin>,
    pub clips: Vec<Clip>,
    /// Every node with a mesh, in node order (whether or not the default
    /// scene reaches it).
    pub instances: Vec<Instance>,
}

impl Scene {
    /// `targets` and all their ancestors, each once, every parent before
    /// its children (in the order the targets first reach them). Linear in
    /// the nodes returned.
    pub fn with_ancestors(&self, targets: &[usize]) -> Vec<usize> {
        let mut placed = vec![false; self.nodes.len()];
        let mut order = Vec::new();
        let mut chain = Vec::new();
        for &target in targets {
            // Walk up to the first node already placed, then place the
            // chain top-down.
            let mut node = Some(target);
            while let Some(x) = node {
                if placed[x] {
                    break;
                }
                chain.push(x);
                node = self.nodes[x].parent;
            }
            while let Some(x) = chain.pop() {
                placed[x] = true;
                order.push(x);
            }
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_ancestors_places_each_node_once_parents_first() {
        // 0 <- 1 <- 2, 0 <- 3, and 4 alone.
        let node = |parent| Node {
            name: None,
            parent,
            children: vec![],
            local: LocalTransform::Trs(Trs::IDENTITY),
        };
        let scene = Scene {
            nodes: vec![
                node(None),
                node(Some(0)),
                node(Some(1)),
                node(Some(0)),
                node(None),
            ],
            ..Scene::default()
        };
        assert_eq!(scene.with_ancestors(&[2, 3]), [0, 1, 2, 3]);
        assert_eq!(scene.with_ancestors(&[3, 2, 1]), [0, 3, 1, 2]);
        assert_eq!(scene.with_ancestors(&[4]), [4]);
        assert_eq!(scene.with_ancestors(&[]), Vec::<usize>::new());
    }
}
