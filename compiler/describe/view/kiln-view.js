// kiln view's own code: draws each file's scene from the page's data (the
// kiln-data JSON, made by kiln's validated decoders; nothing here parses
// a file), with the part of three.js in three.js. Pose caches: the
// entities as points moving on a timeline, absent poses not drawn;
// replays: the joints so, each joined to its parent by a line.
(function () {
  'use strict';
  var T = window.KILN_THREE;
  var files = JSON.parse(document.getElementById('kiln-data').textContent);

  function floats(b64) {
    var bin = atob(b64);
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Float32Array(bytes.buffer);
  }

  // The positions of `frame` as numbers, an absent pose's as null: what
  // the tests compare with kiln's own decoding.
  function framePositions(pos, n, frame) {
    var out = [];
    for (var e = 0; e < n; e++) {
      var at = (frame * n + e) * 3;
      out.push(isNaN(pos[at]) ? null : [pos[at], pos[at + 1], pos[at + 2]]);
    }
    return out;
  }

  var renderer = undefined;
  // The page's one WebGL renderer (480 x 320), or null without WebGL.
  function sharedRenderer() {
    if (renderer === undefined) {
      try {
        renderer = new T.WebGLRenderer({ antialias: false });
        renderer.setPixelRatio(1);
        renderer.setSize(480, 320);
      } catch (e) {
        renderer = null;
      }
    }
    return renderer;
  }

  function poses(section, s) {
    var n = s.entities.length;
    var pos = floats(s.positions);
    var last = Math.max(s.frames - 1, 0);
    var check = document.createElement('pre');
    check.className = 'kiln-check';
    check.hidden = true;
    check.textContent = JSON.stringify([0, Math.floor(last / 2), last].map(function (f) {
      return { frame: f, positions: framePositions(pos, n, f) };
    }));
    section.appendChild(check);

    var box = document.createElement('div');
    box.className = 'scene';
    section.insertBefore(box, section.querySelector('h2').nextSibling);
    var renderer = sharedRenderer();
    if (!renderer) {
      box.dataset.webgl = 'no';
      box.textContent = 'No WebGL in this browser: the positions are in the tables below.';
      return;
    }
    box.dataset.webgl = 'yes';
    // Each scene is drawn by the one renderer and copied to its own
    // canvas: a browser keeps only so many WebGL contexts.
    var canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 320;
    var ctx = canvas.getContext('2d');
    box.appendChild(canvas);

    // Frame every present position.
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    for (var i = 0; i < s.frames * n; i++) {
      if (isNaN(pos[i * 3])) continue;
      for (var k = 0; k < 3; k++) {
        lo[k] = Math.min(lo[k], pos[i * 3 + k]);
        hi[k] = Math.max(hi[k], pos[i * 3 + k]);
      }
    }
    if (!isFinite(lo[0])) lo = hi = [0, 0, 0];
    var centre = new T.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    var radius = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-3);
    var scene = new T.Scene();
    scene.background = new T.Color(0xf4f4f4);
    var camera = new T.PerspectiveCamera(40, 480 / 320, radius / 100, radius * 100);
    if (s.dimensions === 2) {
      camera.position.set(centre.x, centre.y, centre.z + radius * 2.2);
    } else {
      camera.position.set(centre.x + radius * 0.8, centre.y + radius * 0.9, centre.z + radius * 2);
    }
    camera.lookAt(centre);
    var geometry = new T.BufferGeometry();
    var shown = new Float32Array(n * 3);
    geometry.setAttribute('position', new T.BufferAttribute(shown, 3));
    var points = new T.Points(geometry, new T.PointsMaterial({ color: 0xc0306a, size: 6, sizeAttenuation: false }));
    scene.add(points);
    // A joint tree: a line from each joint to its parent, both present.
    var bones = null, ends = null;
    if (s.parents) {
      ends = new Float32Array(n * 6);
      bones = new T.BufferGeometry();
      bones.setAttribute('position', new T.BufferAttribute(ends, 3));
      scene.add(new T.LineSegments(bones, new T.LineBasicMaterial({ color: 0x404040 })));
    }

    var slider = document.createElement('input');
    slider.type = 'range';
    slider.min = 0;
    slider.max = last;
    slider.value = 0;
    var label = document.createElement('span');
    var play = document.createElement('button');
    play.textContent = 'play';
    box.appendChild(document.createElement('br'));
    box.appendChild(play);
    box.appendChild(slider);
    box.appendChild(label);

    function draw(frame) {
      var count = 0;
      for (var e = 0; e < n; e++) {
        var at = (frame * n + e) * 3;
        if (isNaN(pos[at])) continue;
        shown[count * 3] = pos[at];
        shown[count * 3 + 1] = pos[at + 1];
        shown[count * 3 + 2] = pos[at + 2];
        count++;
      }
      geometry.attributes.position.needsUpdate = true;
      geometry.setDrawRange(0, count);
      if (bones) {
        var lines = 0;
        for (var j = 0; j < n; j++) {
          var p = s.parents[j];
          var a = (frame * n + j) * 3, b = (frame * n + p) * 3;
          if (p < 0 || p >= n || isNaN(pos[a]) || isNaN(pos[b])) continue;
          for (var k = 0; k < 3; k++) {
            ends[lines * 6 + k] = pos[a + k];
            ends[lines * 6 + 3 + k] = pos[b + k];
          }
          lines++;
        }
        bones.attributes.position.needsUpdate = true;
        bones.setDrawRange(0, lines * 2);
      }
      label.textContent = ' frame ' + frame + ' of ' + last + ', ' + count + ' of ' + n + ' present';
      renderer.render(scene, camera);
      ctx.drawImage(renderer.domElement, 0, 0);
    }
    slider.addEventListener('input', function () { draw(Number(slider.value)); });
    var playing = false;
    play.addEventListener('click', function () {
      playing = !playing;
      play.textContent = playing ? 'pause' : 'play';
      var step = function () {
        if (!playing) return;
        slider.value = (Number(slider.value) + 1) % (last + 1);
        draw(Number(slider.value));
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    draw(0);
  }

  files.forEach(function (file, i) {
    var s = file.scene;
    if (!s) return;
    var section = document.getElementById('f' + i);
    if (s.kind === 'poses' || s.kind === 'joints') poses(section, s);
  });
})();
