import { useEffect, useRef } from 'react';
import * as THREE from 'three';

/** docs/PRODUCT.md, Auth torus: a slowly rotating torus, camera field of view 75, 0.01 rad per frame on two axes. */
export default function TorusCanvas() {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let renderer: THREE.WebGLRenderer;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
    } catch {
      return; // No WebGL (old device, disabled GPU): the panel keeps its gradient.
    }
    const scene = new THREE.Scene();
    const camera = new THREE.PerspectiveCamera(75, 1, 0.1, 1000);
    camera.position.z = 30;
    const torus = new THREE.Mesh(
      new THREE.TorusGeometry(10, 3, 24, 100),
      new THREE.MeshStandardMaterial({ color: 0x9d8cff, wireframe: true }),
    );
    scene.add(torus, new THREE.AmbientLight(0xffffff, 1.2));
    const light = new THREE.PointLight(0xffffff, 200);
    light.position.set(20, 20, 20);
    scene.add(light);
    el.appendChild(renderer.domElement);

    const resize = () => {
      const { clientWidth: w, clientHeight: h } = el;
      if (!w || !h) return;
      renderer.setSize(w, h);
      renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(el);

    let frame = 0;
    const animate = () => {
      torus.rotation.x += 0.01;
      torus.rotation.y += 0.01;
      renderer.render(scene, camera);
      frame = requestAnimationFrame(animate);
    };
    animate();
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      renderer.dispose();
      renderer.domElement.remove();
    };
  }, []);

  return <div ref={host} className="torus-canvas" data-testid="torus" aria-hidden="true" />;
}
