// The petpack player page: fetches pet.petpack from its own directory, has
// the WebAssembly runtime (runtime/playback) validate and play it, and
// draws the frame it says is due on a canvas at the package's exact pixel
// size (the width slider only changes the displayed size). Every input goes
// to the runtime with the page's clock; the page wakes only when the
// runtime says the next visible change is due.
//
// ?clock=test replaces the wall clock by one a test advances
// (window.petTest.advance(t)); no timer runs then. ?seed=N sets the seed.
'use strict';

(async function main() {
  const params = new URLSearchParams(location.search);
  const testClock = params.get('clock') === 'test';
  const $ = (id) => document.getElementById(id);
  const canvas = $('pet');
  const ctx = canvas.getContext('2d');
  const status = $('status');
  if (testClock) document.body.classList.add('test-clock');
  if (params.has('seed')) $('seed').value = params.get('seed');

  let t0 = performance.now();
  let now = 0; // the test clock
  let stallUntil = -1;
  let last = null;
  let timer = 0;
  let pointerHeld = false;
  const bitmaps = {};
  const clock = () => (testClock ? now : Math.floor(performance.now() - t0));

  const ready = new Promise((resolve) => { globalThis.petPlayerReady = resolve; });
  const go = new Go();
  const wasm = await WebAssembly.instantiateStreaming(fetch('player.wasm'), go.importObject);
  go.run(wasm.instance);
  await ready;
  const api = globalThis.petPlayer;
  document.body.dataset.wasmReadyMs = String(performance.now());

  const archive = new Uint8Array(await (await fetch('pet.petpack')).arrayBuffer());
  const info = api.load(archive);
  if (info.error) {
    status.textContent = 'rejected: ' + info.error;
    document.body.dataset.state = 'rejected';
    return;
  }
  document.body.dataset.validatedMs = String(performance.now());
  canvas.width = info.width;
  canvas.height = info.height;
  $('name').textContent = info.name;
  for (const [action, count] of Object.entries(info.counts)) {
    bitmaps[action] = [];
    for (let i = 0; i < count; i++) {
      const blob = new Blob([api.frame(action, i)], { type: 'image/png' });
      bitmaps[action].push(await createImageBitmap(blob, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' }));
    }
  }

  function setWidth(w) {
    canvas.style.width = w + 'px';
    $('width-out').textContent = String(w);
  }
  $('width').value = String(Math.min(300, Math.max(100, info.width)));
  setWidth(Number($('width').value));

  // render shows what is due now, once, unless the renderer is stalled.
  function render() {
    const t = clock();
    if (t < stallUntil) return;
    const f = api.show(t);
    if (!last || f.action !== last.action || f.frame !== last.frame || f.scale !== last.scale) {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(bitmaps[f.action][f.frame], 0, 0);
      // The runtime gives the press-scale as a step; the ease is the
      // page's: down over 160 ms when pressed, and back over the 160 ms
      // after the pointer-up (started in onUp).
      canvas.style.transform = f.scale === 1 || !pointerHeld ? '' : `scale(${f.scale})`;
      // The page's own clock reading for this frame, set before data-shown
      // so an observer of data-shown sees both (the wall-clock test checks
      // what shows against the runtime's trace at this time).
      canvas.dataset.shownAtMs = String(t);
      canvas.dataset.shown = `${f.action} ${f.frame} ${f.scale}`;
      if (!last) document.body.dataset.firstFrameMs = String(performance.now());
      last = f;
    }
    schedule();
  }
  // schedule arms the one wake-up: the runtime's next visible change. The
  // boundary and the delay it armed are published (data-next-ms,
  // data-delay-ms; -1 when nothing is due) for the wall-clock test.
  function schedule() {
    if (testClock) return;
    clearTimeout(timer);
    const n = api.next();
    const delay = n >= 0 ? Math.max(0, n - clock()) : -1;
    canvas.dataset.nextMs = String(n);
    canvas.dataset.delayMs = String(delay);
    if (n >= 0) timer = setTimeout(render, delay);
  }
  function apply(result) {
    if (typeof result === 'string') status.textContent = result;
    render();
  }

  function restart() {
    const err = api.reset(Number($('seed').value) | 0);
    if (err) status.textContent = err;
    t0 = performance.now();
    // The wall-clock test measures shown frames from this origin.
    document.body.dataset.clockOriginMs = String(t0);
    now = 0;
    last = null;
    stallUntil = -1;
    apply(null);
  }

  document.querySelectorAll('button[data-event]').forEach((b) => {
    b.addEventListener('click', () => apply(api.event(clock(), b.dataset.event)));
  });
  $('bubble').addEventListener('change', (e) => apply(api.bubble(clock(), e.target.checked)));
  $('reduce-motion').addEventListener('change', (e) => apply(api.reduceMotion(clock(), e.target.checked)));
  $('width').addEventListener('input', (e) => setWidth(Number(e.target.value)));
  $('restart').addEventListener('click', restart);

  // Pointer input: a press is `down`. Moving more than 4 px from the press
  // point starts a drag; from then on each move of at least 0.5 px picks the
  // direction (the authors' runtime uses that threshold), and a new
  // direction is drag_left or drag_right. A release ends the drag, or else
  // is `up` and one complete `click`.
  const dragStart = 4;
  const directionThreshold = 0.5;
  let downX = 0;
  let lastX = 0;
  let dragDir = '';
  canvas.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    pointerHeld = true;
    downX = lastX = e.clientX;
    dragDir = '';
    apply(api.pointer(clock(), 'down'));
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!pointerHeld) return;
    const dx = dragDir ? e.clientX - lastX : e.clientX - downX;
    if (dragDir ? Math.abs(dx) < directionThreshold : Math.abs(dx) <= dragStart) return;
    lastX = e.clientX;
    const dir = dx < 0 ? 'drag_left' : 'drag_right';
    if (dir !== dragDir) {
      dragDir = dir;
      apply(api.pointer(clock(), dir));
    }
  });
  function onUp(e) {
    if (!pointerHeld || e.button !== 0) return;
    pointerHeld = false;
    canvas.style.transform = '';
    const t = clock();
    if (dragDir) {
      dragDir = '';
      api.pointer(t, 'drag_end');
      apply(api.pointer(t, 'up'));
    } else {
      api.pointer(t, 'up');
      apply(api.pointer(t, 'click'));
    }
  }
  canvas.addEventListener('pointerup', onUp);
  canvas.addEventListener('pointercancel', onUp);

  if (testClock) {
    window.petTest = {
      // advance sets the test clock (never backwards) and renders.
      advance(t) {
        now = Math.max(now, t);
        render();
        return canvas.dataset.shown;
      },
      // stall stops the renderer from now for ms; inputs still apply.
      stall(ms) {
        stallUntil = now + ms;
      },
      // pixels returns the canvas as base64 RGBA.
      pixels() {
        const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        let s = '';
        for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
        return btoa(s);
      },
      state() {
        return { shown: canvas.dataset.shown, transform: canvas.style.transform, width: canvas.width, height: canvas.height, dpr: window.devicePixelRatio };
      },
    };
  }
  status.textContent = 'playing';
  document.body.dataset.state = 'ready';
  restart(); // with the seed field's seed, from t=0
})().catch((err) => {
  document.getElementById('status').textContent = 'error: ' + err;
  document.body.dataset.state = 'error';
});
