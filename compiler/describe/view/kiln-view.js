// kiln view's own code: draws each file's scene from the page's data (the
// kiln-data JSON, made by kiln's validated decoders; nothing here parses
// a file), with the part of three.js in three.js. Pose caches: the
// entities as points moving on a timeline, absent poses not drawn;
// replays: the joints so, each joined to its parent by a line; compiled
// characters: each model skinned and textured with its atlas, its
// skeleton drawn, playing its bank's clips by the runtime's rules; CGeo
// sequences: the mesh of each snapshot.
(function () {
  'use strict';
  var T = window.KILN_THREE;
  var files = JSON.parse(document.getElementById('kiln-data').textContent);
  // page.html?only=3 shows the fourth file alone; &at=0.5 starts each
  // timeline half way (a fraction of its frames or of its first clip);
  // &picture=1 shows its second picture (scenes, then images) alone, at
  // the page's corner: what the tests' screenshots take.
  var query = new URLSearchParams(location.search);
  var only = query.get('only'), at = Math.min(Math.max(Number(query.get('at')) || 0, 0), 1);
  // Served by `kiln view --serve`: reload when the server's generation
  // moves past the one this page was made at.
  var live = document.body.dataset.live;
  if (live !== undefined && window.EventSource) {
    var events = new EventSource('/events');
    events.onopen = function () { document.body.dataset.events = 'open'; };
    events.onmessage = function (e) {
      if (e.data !== live) location.reload();
    };
  }
  if (only !== null) {
    document.querySelectorAll('nav, section').forEach(function (e) {
      if (e.id !== 'f' + only) e.hidden = true;
    });
  }

  function bytes(b64) {
    var bin = atob(b64);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function floats(b64) {
    return new Float32Array(bytes(b64).buffer);
  }
  function u16s(b64) {
    return new Uint16Array(bytes(b64).buffer);
  }
  function u32s(b64) {
    return new Uint32Array(bytes(b64).buffer);
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

  // A box after `after` holding a 480 x 320 canvas the page's one
  // renderer copies each drawn frame to (a browser keeps only so many
  // WebGL contexts); without WebGL, a line saying so, and null.
  function sceneBox(section, after) {
    var box = document.createElement('div');
    box.className = 'scene';
    section.insertBefore(box, after.nextSibling);
    var renderer = sharedRenderer();
    if (!renderer) {
      box.dataset.webgl = 'no';
      box.textContent = 'No WebGL in this browser: the data is in the tables below.';
      return null;
    }
    box.dataset.webgl = 'yes';
    var canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 320;
    box.appendChild(canvas);
    return { box: box, renderer: renderer, ctx: canvas.getContext('2d') };
  }

  function hidden(section, className, value) {
    var check = document.createElement('pre');
    check.className = className;
    check.hidden = true;
    check.textContent = JSON.stringify(value);
    section.appendChild(check);
  }

  // A scene lit for Lambert materials, on the page's grey.
  function litScene() {
    var scene = new T.Scene();
    scene.background = new T.Color(0xf4f4f4);
    scene.add(new T.AmbientLight(0xffffff, 1.2));
    var sun = new T.DirectionalLight(0xffffff, 2.0);
    sun.position.set(0.4, 1, 0.8);
    scene.add(sun);
    return scene;
  }

  // A camera whose view's height the bounding sphere of [lo, hi] fills.
  function sphereCamera(lo, hi) {
    if (!isFinite(lo[0])) lo = hi = [0, 0, 0];
    var centre = new T.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    var radius = Math.max(new T.Vector3(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]).length() / 2, 1e-3);
    var camera = new T.PerspectiveCamera(40, 480 / 320, radius / 100, radius * 100);
    camera.position.copy(centre).add(new T.Vector3(0.45, 0.25, 1).normalize().multiplyScalar(radius / Math.sin(Math.PI / 9)));
    camera.lookAt(centre);
    return camera;
  }

  // Under a scene's canvas: `extra` (if any), a play button, a slider
  // from 0 to `max` at `value`, and a label.
  function controls(box, max, value, extra) {
    var slider = document.createElement('input');
    slider.type = 'range';
    slider.min = 0;
    slider.max = max;
    slider.value = value;
    var play = document.createElement('button');
    play.textContent = 'play';
    var label = document.createElement('span');
    box.appendChild(document.createElement('br'));
    if (extra) box.appendChild(extra);
    box.appendChild(play);
    box.appendChild(slider);
    box.appendChild(label);
    return { slider: slider, play: play, label: label };
  }

  // `play` steps the slider a frame an animation frame, round to 0 after
  // `last`, drawing each.
  function playFrames(c, last, draw) {
    var playing = false;
    c.play.addEventListener('click', function () {
      playing = !playing;
      c.play.textContent = playing ? 'pause' : 'play';
      var step = function () {
        if (!playing) return;
        c.slider.value = (Number(c.slider.value) + 1) % (last + 1);
        draw();
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    c.slider.addEventListener('input', draw);
  }

  function poses(section, s) {
    var n = s.entities.length;
    var pos = floats(s.positions);
    var last = Math.max(s.frames - 1, 0);
    hidden(section, 'kiln-check', [0, Math.floor(last / 2), last].map(function (f) {
      return { frame: f, positions: framePositions(pos, n, f) };
    }));

    var view = sceneBox(section, section.querySelector('h2'));
    if (!view) return;
    var renderer = view.renderer, ctx = view.ctx, box = view.box;

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

    var c = controls(box, last, Math.round(at * last));

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
      c.label.textContent = ' frame ' + frame + ' of ' + last + ', ' + count + ' of ' + n + ' present';
      renderer.render(scene, camera);
      ctx.drawImage(renderer.domElement, 0, 0);
    }
    playFrames(c, last, function () { draw(Number(c.slider.value)); });
    draw(Number(c.slider.value));
  }

  // The runtime's sampling rules (kiln's bake/skinning.rs, which the
  // tests compare with): a track holds its first key before it and its
  // last after it; STEP holds the previous key; LINEAR lerps translation
  // and scale and slerps rotation along the shorter arc.
  function locate(times, t) {
    var last = times.length - 1;
    if (t <= times[0]) return [0, 0];
    if (t >= times[last]) return [last, 0];
    var lo = 0, hi = last; // the first key after t is in (lo, hi]
    while (hi - lo > 1) {
      var mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid;
    }
    return [lo, (t - times[lo]) / (times[hi] - times[lo])];
  }
  function normalize(q) {
    var len = Math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(len > 1e-30) || !isFinite(len)) return [0, 0, 0, 1];
    return [q[0] / len, q[1] / len, q[2] / len, q[3] / len];
  }
  function dot4(a, b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  }
  function slerp(a, b, t) {
    if (dot4(a, b) < 0) b = [-b[0], -b[1], -b[2], -b[3]];
    var diff = [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]];
    var sum = [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]];
    var angle = 2 * Math.atan2(Math.sqrt(dot4(diff, diff)), Math.sqrt(dot4(sum, sum)));
    var wa = 1 - t, wb = t;
    if (angle >= 1e-9) {
      var sin = Math.sin(angle);
      wa = Math.sin((1 - t) * angle) / sin;
      wb = Math.sin(t * angle) / sin;
    }
    return normalize([0, 1, 2, 3].map(function (i) { return wa * a[i] + wb * b[i]; }));
  }
  function sample(track, t) {
    var w = track.path === 'rotation' ? 4 : 3;
    var at = locate(track.times, t), k = at[0], u = at[1];
    var key = function (i) {
      var v = Array.prototype.slice.call(track.values, i * w, i * w + w);
      return w === 4 ? normalize(v) : v;
    };
    if (u === 0 || track.step) return key(k);
    var a = key(k), b = key(k + 1);
    if (w === 4) return slerp(a, b, u);
    return [0, 1, 2].map(function (c) { return a[c] + (b[c] - a[c]) * u; });
  }

  // One model of a compiled characters file: a skinned mesh textured with
  // its atlas, bound to bones made from its nodes, the skeleton drawn over
  // it, and its bank's clips to play. Returns what the page's check reads.
  function character(section, after, m, bank) {
    var nodes = m.nodes, n = nodes.length;
    var scene = litScene();
    var bones = nodes.map(function (node) {
      var b = new T.Bone();
      b.name = node.name;
      return b;
    });
    nodes.forEach(function (node, i) {
      (node.parent >= 0 ? bones[node.parent] : scene).add(bones[i]);
    });
    var byName = {};
    nodes.forEach(function (node, i) { byName[node.name] = i; });
    var clips = bank.clips.map(function (clip) {
      return {
        name: clip.name,
        duration: clip.duration_s,
        tracks: clip.tracks.filter(function (t) { return t.node in byName; }).map(function (t) {
          return { node: byName[t.node], path: t.path, step: t.step, times: floats(t.times_s), values: floats(t.values) };
        }),
      };
    });

    var v = floats(m.vertices), count = m.vertex_count;
    var position = new Float32Array(count * 3), normal = new Float32Array(count * 3);
    var uv = new Float32Array(count * 2), skinIndex = new Uint16Array(count * 4);
    var skinWeight = new Float32Array(count * 4);
    for (var i = 0; i < count; i++) {
      for (var k = 0; k < 3; k++) {
        position[i * 3 + k] = v[i * 16 + k];
        normal[i * 3 + k] = v[i * 16 + 3 + k];
      }
      uv[i * 2] = v[i * 16 + 6];
      uv[i * 2 + 1] = v[i * 16 + 7];
      for (k = 0; k < 4; k++) {
        skinIndex[i * 4 + k] = v[i * 16 + 8 + k];
        skinWeight[i * 4 + k] = v[i * 16 + 12 + k];
      }
    }
    var geometry = new T.BufferGeometry();
    geometry.setAttribute('position', new T.BufferAttribute(position, 3));
    geometry.setAttribute('normal', new T.BufferAttribute(normal, 3));
    geometry.setAttribute('uv', new T.BufferAttribute(uv, 2));
    geometry.setAttribute('skinIndex', new T.BufferAttribute(skinIndex, 4));
    geometry.setAttribute('skinWeight', new T.BufferAttribute(skinWeight, 4));
    geometry.setIndex(new T.BufferAttribute(u16s(m.indices), 1));
    var ibm = floats(m.inverse_bind);
    var skeleton = new T.Skeleton(m.joints.map(function (j) { return bones[j]; }), m.joints.map(function (_, j) {
      return new T.Matrix4().fromArray(ibm, j * 16);
    }));
    // The atlas (v down: row 0 is its top row, as glTF's) is the
    // section's picture, already on the page as a PNG.
    var texture = new T.Texture();
    texture.flipY = false;
    texture.colorSpace = T.SRGBColorSpace;
    var material = new T.MeshLambertMaterial({ map: texture });
    var mesh = new T.SkinnedMesh(geometry, material);
    mesh.frustumCulled = false;
    scene.add(mesh);
    // The skin is in the model's space: bound with the identity, as
    // Σ w · world(joint) · inverse_bind(joint) · p.
    mesh.bind(skeleton, new T.Matrix4());
    // The skeleton: a line from each palette joint to its nearest
    // ancestor in the palette (a valid model's tree has no cycle).
    var isJoint = nodes.map(function () { return false; });
    m.joints.forEach(function (j) { isJoint[j] = true; });
    var up = nodes.map(function (node) {
      var a = node.parent;
      for (var hops = 0; a >= 0 && !isJoint[a] && hops < n; hops++) a = nodes[a].parent;
      return a >= 0 && isJoint[a] ? a : -1;
    });
    var ends = new Float32Array(n * 6);
    var lines = new T.BufferGeometry();
    lines.setAttribute('position', new T.BufferAttribute(ends, 3));
    var skeletonLines = new T.LineSegments(lines, new T.LineBasicMaterial({ color: 0x1060c0, depthTest: false }));
    skeletonLines.renderOrder = 1;
    skeletonLines.frustumCulled = false;
    scene.add(skeletonLines);

    // Every node's local TRS at `time` of clip `c` (-1: the bind pose).
    var world = new T.Vector3();
    function pose(c, time) {
      nodes.forEach(function (node, i) {
        bones[i].position.fromArray(node.translation);
        bones[i].quaternion.fromArray(normalize(node.rotation));
        bones[i].scale.fromArray(node.scale);
      });
      if (c >= 0) {
        clips[c].tracks.forEach(function (track) {
          var value = sample(track, time), b = bones[track.node];
          if (track.path === 'translation') b.position.fromArray(value);
          else if (track.path === 'rotation') b.quaternion.fromArray(value);
          else b.scale.fromArray(value);
        });
      }
      scene.updateMatrixWorld(true);
      skeleton.update();
      var drawn = 0;
      nodes.forEach(function (node, i) {
        if (!isJoint[i] || up[i] < 0) return;
        world.setFromMatrixPosition(bones[i].matrixWorld).toArray(ends, drawn * 6);
        world.setFromMatrixPosition(bones[up[i]].matrixWorld).toArray(ends, drawn * 6 + 3);
        drawn++;
      });
      lines.attributes.position.needsUpdate = true;
      lines.setDrawRange(0, drawn * 2);
    }

    // What the tests compare with kiln's CPU skinning: every node's world
    // position and some vertices skinned, at three times of every clip.
    var sampled = [];
    var every = Math.max(1, Math.floor(count / 16));
    clips.forEach(function (clip, c) {
      [0, clip.duration * 0.37, clip.duration].forEach(function (time) {
        pose(c, time);
        var skinned = [];
        for (var i = 0; i < count; i += every) {
          var p = new T.Vector3(position[i * 3], position[i * 3 + 1], position[i * 3 + 2]);
          mesh.applyBoneTransform(i, p);
          skinned.push([i, p.x, p.y, p.z]);
        }
        sampled.push({
          model: m.id,
          clip: clip.name,
          time_s: time,
          nodes: bones.map(function (b) { return world.setFromMatrixPosition(b.matrixWorld).toArray(); }),
          vertices: skinned,
        });
      });
    });

    var view = sceneBox(section, after);
    if (!view) return { after: after, sampled: sampled };
    var box = view.box;
    var caption = document.createElement('div');
    caption.textContent = 'model ' + m.id;
    box.insertBefore(caption, box.firstChild);

    // Frame the skin as the first clip moves it (or the bind pose).
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    var p = new T.Vector3();
    [0, 0.37, 1].forEach(function (f) {
      pose(clips.length ? 0 : -1, clips.length ? clips[0].duration * f : 0);
      for (var i = 0; i < count; i++) {
        p.fromArray(position, i * 3);
        mesh.applyBoneTransform(i, p);
        lo = [Math.min(lo[0], p.x), Math.min(lo[1], p.y), Math.min(lo[2], p.z)];
        hi = [Math.max(hi[0], p.x), Math.max(hi[1], p.y), Math.max(hi[2], p.z)];
      }
    });
    var camera = sphereCamera(lo, hi);

    var choose = document.createElement('select');
    var bind = document.createElement('option');
    bind.value = -1;
    bind.textContent = 'bind pose';
    choose.appendChild(bind);
    clips.forEach(function (clip, c) {
      var o = document.createElement('option');
      o.value = c;
      o.textContent = clip.name + ' (' + clip.duration.toFixed(2) + ' s)';
      choose.appendChild(o);
    });
    choose.value = clips.length ? 0 : -1;
    var ui = controls(box, 1000, Math.round(at * 1000), choose);
    var slider = ui.slider, play = ui.play, label = ui.label;

    function draw() {
      var c = Number(choose.value);
      var duration = c >= 0 ? clips[c].duration : 0;
      var time = duration * Number(slider.value) / 1000;
      pose(c, time);
      label.textContent = c >= 0 ? ' ' + time.toFixed(3) + ' s of ' + duration.toFixed(3) : '';
      view.renderer.render(scene, camera);
      view.ctx.drawImage(view.renderer.domElement, 0, 0);
    }
    choose.addEventListener('change', function () { slider.value = 0; draw(); });
    slider.addEventListener('input', draw);
    var playing = false, started = 0, from = 0;
    play.addEventListener('click', function () {
      playing = !playing;
      play.textContent = playing ? 'pause' : 'play';
      started = performance.now();
      from = Number(slider.value);
      var step = function (now) {
        if (!playing) return;
        var c = Number(choose.value);
        var duration = c >= 0 ? clips[c].duration : 0;
        if (duration > 0) slider.value = (from + (now - started) / duration) % 1000;
        draw();
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    var image = section.querySelectorAll('figure image')[m.atlas];
    if (image) {
      var img = new Image();
      img.onload = function () {
        texture.image = img;
        texture.needsUpdate = true;
        draw();
      };
      img.src = image.getAttribute('href');
    }
    draw();
    return { after: box, sampled: sampled };
  }

  function characters(section, s) {
    var after = section.querySelector('h2'), sampled = [];
    s.models.forEach(function (m) {
      var drawn = character(section, after, m, s.banks[m.bank]);
      after = drawn.after;
      sampled = sampled.concat(drawn.sampled);
    });
    hidden(section, 'kiln-check-characters', sampled);
  }

  // A CGeo sequence: the mesh of each drawn snapshot, one at a time on a
  // timeline (a snapshot without its own triangles keeps the last ones).
  function meshes(section, s) {
    var frames = s.snapshots.map(function (snap) {
      return { positions: floats(snap.positions), triangles: snap.triangles ? u32s(snap.triangles) : null };
    });
    var triangles = null;
    frames.forEach(function (f) {
      if (f.triangles) triangles = f.triangles; else f.triangles = triangles || new Uint32Array(0);
    });
    var last = Math.max(frames.length - 1, 0);
    hidden(section, 'kiln-check-meshes', frames.length ? [0, Math.floor(last / 2), last].map(function (k) {
      var p = frames[k].positions, count = p.length / 3, every = Math.max(1, Math.floor(count / 16)), sampled = [];
      for (var i = 0; i < count; i += every) sampled.push([i, p[i * 3], p[i * 3 + 1], p[i * 3 + 2]]);
      return { frame: k, vertex_count: count, triangle_count: frames[k].triangles.length / 3, vertices: sampled };
    }) : []);
    if (!frames.length) return;
    var view = sceneBox(section, section.querySelector('h2'));
    if (!view) return;
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    frames.forEach(function (f) {
      for (var i = 0; i < f.positions.length; i++) {
        lo[i % 3] = Math.min(lo[i % 3], f.positions[i]);
        hi[i % 3] = Math.max(hi[i % 3], f.positions[i]);
      }
    });
    var camera = sphereCamera(lo, hi);
    var scene = litScene();
    var mesh = new T.Mesh(new T.BufferGeometry(), new T.MeshLambertMaterial({ color: 0xb0a090, side: T.DoubleSide }));
    mesh.frustumCulled = false;
    scene.add(mesh);
    var geometries = [];
    function geometry(k) {
      if (!geometries[k]) {
        var g = new T.BufferGeometry();
        g.setAttribute('position', new T.BufferAttribute(frames[k].positions, 3));
        g.setIndex(new T.BufferAttribute(frames[k].triangles, 1));
        g.computeVertexNormals();
        geometries[k] = g;
      }
      return geometries[k];
    }
    var c = controls(view.box, last, Math.round(at * last));
    var slider = c.slider, label = c.label;
    function draw() {
      var k = Number(slider.value);
      mesh.geometry = geometry(k);
      label.textContent = ' snapshot ' + k + ' of ' + last + ' (' + ((s.start_us + k * s.time_per_snapshot_us) / 1e6).toFixed(3) + ' s), ' +
        frames[k].positions.length / 3 + ' vertices, ' + frames[k].triangles.length / 3 + ' triangles' +
        (s.frames < s.frames_in_file ? '; the first ' + s.frames + ' of ' + s.frames_in_file + ' snapshots drawn' : '');
      view.renderer.render(scene, camera);
      view.ctx.drawImage(view.renderer.domElement, 0, 0);
    }
    playFrames(c, last, draw);
    draw();
  }

  files.forEach(function (file, i) {
    var s = file.scene;
    if (!s) return;
    var section = document.getElementById('f' + i);
    if (s.kind === 'poses' || s.kind === 'joints') poses(section, s);
    if (s.kind === 'characters') characters(section, s);
    if (s.kind === 'meshes') meshes(section, s);
  });
  var picture = only !== null && query.get('picture');
  if (picture) {
    var shown = document.getElementById('f' + only);
    var alone = shown && shown.querySelectorAll('canvas, svg.picture')[Number(picture)];
    if (alone) {
      alone.style.display = 'block';
      document.body.replaceChildren(alone);
      document.body.style.margin = '0';
    }
  }
})();
