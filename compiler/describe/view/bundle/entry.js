// The part of three.js kiln view's page uses, bundled by bundle.sh into
// ../three.js (committed) as the global KILN_THREE: the page runs it
// inline, so it fetches nothing.
export {
  BufferAttribute,
  BufferGeometry,
  Color,
  GridHelper,
  LineBasicMaterial,
  LineSegments,
  PerspectiveCamera,
  Points,
  PointsMaterial,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
