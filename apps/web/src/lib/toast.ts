import type { ToastContainerProps } from 'react-toastify';

/**
 * docs/PRODUCT.md, Messages: top-right, dark, 5000 ms, progress bar, pause on hover, draggable, no close on click,
 * Alt+T.
 */
export const toastOptions: ToastContainerProps = {
  position: 'top-right',
  theme: 'dark',
  autoClose: 5000,
  hideProgressBar: false,
  pauseOnHover: true,
  draggable: true,
  closeOnClick: false,
  hotKeys: (e) => e.altKey && e.code === 'KeyT',
};
