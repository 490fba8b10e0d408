//! Meshes and their materials, as far as kiln resolves them: the base
//! colour (factor, texture, vertex colours) that the atlas stage bakes,
//! and the vertex data a compiled character needs.
//!
//! Like [`super::Scene`], values built by an importer are valid by
//! construction: indices in range, every float finite, colours and
//! factors in 0..=1, triangle lists whose length is a multiple of 3.

/// How a texture coordinate outside 0..1 is brought back (glTF sampler
/// `wrapS` / `wrapT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wrap {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
}

/// Texel filtering of a sampler (magnification; minification's mipmap
/// part does not change which texels a texture holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    pub wrap_s: Wrap,
    pub wrap_t: Wrap,
    pub mag_filter: Filter,
}

impl Sampler {
    /// glTF's default sampler: repeat, linear.
    pub const DEFAULT: Sampler = Sampler {
        wrap_s: Wrap::Repeat,
        wrap_t: Wrap::Repeat,
        mag_filter: Filter::Linear,
    };
}

/// `KHR_texture_transform`: `uv' = T · R · S · uv`, as the extension's
/// GLSL states it: `R = mat3(cos, sin, 0, -sin, cos, 0, 0, 0, 1)` (column
/// major), so `u' = cos·sx·u − sin·sy·v + ox`, `v' = sin·sx·u + cos·sy·v + oy`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureTransform {
    pub offset: [f32; 2],
    /// Radians.
    pub rotation: f32,
    pub scale: [f32; 2],
}

impl TextureTransform {
    pub const IDENTITY: TextureTransform = TextureTransform {
        offset: [0.0, 0.0],
        rotation: 0.0,
        scale: [1.0, 1.0],
    };

    /// The transform as a 2x3 matrix (sine and cosine once, for every UV
    /// it maps). Computed in f64 with `libm` (the same bits everywhere).
    pub fn matrix(&self) -> UvMatrix {
        let r = f64::from(self.rotation);
        let (s, c) = (libm::sin(r), libm::cos(r));
        let [sx, sy] = self.scale.map(f64::from);
        let [ox, oy] = self.offset.map(f64::from);
        UvMatrix([[c * sx, -s * sy, ox], [s * sx, c * sy, oy]])
    }

    /// Applies the transform to `uv` (for many UVs, [`Self::matrix`] once).
    pub fn apply(&self, uv: [f32; 2]) -> [f64; 2] {
        self.matrix().apply(uv)
    }
}

/// A 2x3 affine map of UVs, rows `[a, b, c]`: `u' = a u + b v + c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvMatrix(pub [[f64; 3]; 2]);

impl UvMatrix {
    pub fn apply(&self, uv: [f32; 2]) -> [f64; 2] {
        let m = &self.0;
        let [u, v] = uv.map(f64::from);
        [
            m[0][0] * u + m[0][1] * v + m[0][2],
            m[1][0] * u + m[1][1] * v + m[1][2],
        ]
    }
}

/// A material's base colour texture: which image, sampled how, through
/// which texture coordinate set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BaseColorTexture {
    /// Index into the asset's images.
    pub image: usize,
    pub sampler: Sampler,
    /// `TEXCOORD_<n>` (after `KHR_texture_transform`'s override).
    pub tex_coord: usize,
    pub transform: TextureTransform,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlphaMode {
    Opaque,
    Mask,
    Blend,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: Option<String>,
    /// Linear RGBA, each in 0..=1.
    pub base_color_factor: [f32; 4],
    pub base_color_texture: Option<BaseColorTexture>,
    pub alpha_mode: AlphaMode,
}

impl Material {
    /// What a primitive without a material gets (glTF's default material).
    pub fn default_material() -> Material {
        Material {
            name: None,
            base_color_factor: [1.0; 4],
            base_color_texture: None,
            alpha_mode: AlphaMode::Opaque,
        }
    }
}

/// An image's encoded bytes as the asset holds them, and where they are,
/// so an error in them can name its byte of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedImage {
    pub name: Option<String>,
    pub bytes: Vec<u8>,
    pub origin: ImageOrigin,
}

/// Where an image's bytes are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageOrigin {
    /// From byte `at` of the glTF file itself (a buffer view of a GLB's
    /// BIN chunk).
    InFile { at: u64 },
    /// From byte `at` of the file `name` beside the source (an image file,
    /// or a buffer file a view of it holds the image).
    Beside { name: String, at: u64 },
    /// Decoded from what the file holds (a `data:` URI, a compressed
    /// buffer view): in no file; the image's JSON is at byte `json_at` of
    /// the glTF file.
    Decoded { json_at: u64 },
}

/// A decoded image: RGBA8 (sRGB colour, linear alpha), row-major, top
/// row first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba8 {
    pub width: u32,
    pub height: u32,
    /// `width × height × 4` bytes.
    pub pixels: Vec<u8>,
}

impl Rgba8 {
    /// The texel at column `x`, row `y` (both in range).
    pub fn texel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.pixels[i],
            self.pixels[i + 1],
            self.pixels[i + 2],
            self.pixels[i + 3],
        ]
    }
}

/// One draw of a mesh: triangles with their vertex attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct Primitive {
    /// Index into the asset's materials; `None` is the default material.
    pub material: Option<usize>,
    pub positions: Vec<[f32; 3]>,
    pub normals: Option<Vec<[f32; 3]>>,
    /// `TEXCOORD_0`, `TEXCOORD_1`, … in order (each as many as positions).
    pub tex_coords: Vec<Vec<[f32; 2]>>,
    /// `COLOR_0` as linear RGBA (RGB sets get alpha 1).
    pub colors: Option<Vec<[f32; 4]>>,
    pub joints: Option<Vec<[u16; 4]>>,
    pub weights: Option<Vec<[f32; 4]>>,
    /// `JOINTS_1` and `WEIGHTS_1`: four more influences per vertex.
    pub joints_1: Option<Vec<[u16; 4]>>,
    pub weights_1: Option<Vec<[f32; 4]>>,
    /// Morph targets: position and normal displacements, each as many as
    /// positions when present.
    pub targets: Vec<MorphTarget>,
    /// A triangle list (strips and fans are unrolled), three vertex indices
    /// per triangle, each below `positions.len()`.
    pub indices: Vec<u32>,
}

/// One morph target of a primitive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MorphTarget {
    pub positions: Option<Vec<[f32; 3]>>,
    pub normals: Option<Vec<[f32; 3]>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    pub name: Option<String>,
    pub primitives: Vec<Primitive>,
    /// The mesh's default morph weights (`mesh.weights`; empty: all 0).
    pub weights: Vec<f32>,
}

/// An asset's meshes with everything their materials refer to.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meshes {
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    /// Every image of the asset, encoded (`None` for those no base colour
    /// texture shows, which are not read); decoded on demand.
    pub images: Vec<Option<EncodedImage>>,
}
