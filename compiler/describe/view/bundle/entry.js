// The part of three.js kiln view's page uses, bundled by bundle.sh into
// ../three.js (committed): the page runs it inline, so it fetches nothing.
import {
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

window.KILN_THREE = {
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
};
