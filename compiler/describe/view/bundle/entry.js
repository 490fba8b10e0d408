// The part of three.js kiln view's page uses, bundled by bundle.sh into
// ../three.js (committed) as the global KILN_THREE: the page runs it
// inline, so it fetches nothing.
export {
  AmbientLight,
  Bone,
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  DirectionalLight,
  GridHelper,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  Points,
  PointsMaterial,
  Scene,
  Skeleton,
  SkinnedMesh,
  SRGBColorSpace,
  Texture,
  Vector3,
  WebGLRenderer,
} from 'three';
