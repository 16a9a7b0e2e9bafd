// Move sounds, made on the fly with the Web Audio API (no sound files): a short wooden knock
// for a move, a lower one for the end of the game, a tick while one's own clock runs low. On
// until the visitor turns them off (the header's button, the settings).
import { prefs } from './prefs.js';

let ctx = null;

function knock(freq, length, gain) {
  if (!prefs.sound) return;
  try {
    ctx = ctx || new (window.AudioContext || window.webkitAudioContext)();
    const t0 = ctx.currentTime;
    const osc = ctx.createOscillator();
    const g = ctx.createGain();
    osc.type = 'triangle';
    osc.frequency.setValueAtTime(freq, t0);
    osc.frequency.exponentialRampToValueAtTime(freq * 0.5, t0 + length);
    g.gain.setValueAtTime(gain, t0);
    g.gain.exponentialRampToValueAtTime(0.001, t0 + length);
    osc.connect(g).connect(ctx.destination);
    osc.start(t0);
    osc.stop(t0 + length);
  } catch { /* no audio on this device */ }
}

/** A disc placed. */
export const moveSound = () => knock(520, 0.09, 0.25);
/** The game is over. */
export const endSound = () => { knock(330, 0.25, 0.2); setTimeout(() => knock(247, 0.35, 0.2), 180); };
/** A second gone while one's own clock runs low (a short high tick; off with `prefs.tick`). */
export const tickSound = () => { if (prefs.tick) knock(1400, 0.03, 0.12); };
/** A game started waiting for the player's move (two quick knocks). */
export const turnSound = () => { knock(660, 0.07, 0.22); setTimeout(() => knock(880, 0.09, 0.22), 110); };
