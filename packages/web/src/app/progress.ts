import NProgress from 'nprogress';
import 'nprogress/nprogress.css';

// NProgress's own template gives the bar role="bar", which is no ARIA role: this one is hidden
// from assistive technology, as the page's own heading and live regions say what changed.
NProgress.configure({
  showSpinner: false,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
});

/** The progress bar shown while a navigation runs. */
export const progress = {
  start: () => NProgress.start(),
  done: () => NProgress.done(),
};
