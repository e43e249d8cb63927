import { useEffect, useRef } from 'react';
import { prefersReducedMotion } from '../../lib/useMediaQuery';

export const PARTICLE_COUNT = 100;

interface Particle {
  x: number;
  y: number;
  vx: number;
  vy: number;
  r: number;
}

/** A small seeded generator (mulberry32): the same decorative field on every visit. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function makeParticles(width: number, height: number): Particle[] {
  // Decoration only: positions and drift come from a fixed seed, not from any data.
  const next = seeded(0x6d616e6a);
  return Array.from({ length: PARTICLE_COUNT }, () => ({
    x: next() * width,
    y: next() * height,
    vx: (next() - 0.5) * 0.4,
    vy: (next() - 0.5) * 0.4,
    r: 1 + next() * 2,
  }));
}

function step(particles: Particle[], width: number, height: number): void {
  for (const p of particles) {
    p.x += p.vx;
    p.y += p.vy;
    if (p.x < 0 || p.x > width) p.vx = -p.vx;
    if (p.y < 0 || p.y > height) p.vy = -p.vy;
  }
}

function draw(
  ctx: CanvasRenderingContext2D,
  particles: Particle[],
  width: number,
  height: number,
  color: string,
): void {
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  for (let i = 0; i < particles.length; i += 1) {
    const a = particles[i];
    if (!a) continue;
    ctx.globalAlpha = 0.7;
    ctx.beginPath();
    ctx.arc(a.x, a.y, a.r, 0, Math.PI * 2);
    ctx.fill();
    for (let j = i + 1; j < particles.length; j += 1) {
      const b = particles[j];
      if (!b) continue;
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (distance < 110) {
        ctx.globalAlpha = 0.18 * (1 - distance / 110);
        ctx.beginPath();
        ctx.moveTo(a.x, a.y);
        ctx.lineTo(b.x, b.y);
        ctx.stroke();
      }
    }
  }
  ctx.globalAlpha = 1;
}

/** 100 drifting particles on a canvas behind the hero; a still frame when motion is reduced. */
export function ParticleField() {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return undefined;
    let width = 0;
    let height = 0;
    let particles: Particle[] = [];
    let frame = 0;
    const color =
      getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim() || '#f5b83d';
    const resize = (): void => {
      width = canvas.clientWidth;
      height = canvas.clientHeight;
      canvas.width = width;
      canvas.height = height;
      particles = makeParticles(width, height);
      draw(ctx, particles, width, height, color);
    };
    const tick = (): void => {
      step(particles, width, height);
      draw(ctx, particles, width, height, color);
      frame = requestAnimationFrame(tick);
    };
    resize();
    window.addEventListener('resize', resize);
    if (!prefersReducedMotion()) frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', resize);
    };
  }, []);
  return <canvas ref={canvasRef} className="particles" aria-hidden="true" />;
}
