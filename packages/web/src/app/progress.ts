import NProgress from 'nprogress';
import 'nprogress/nprogress.css';

NProgress.configure({ showSpinner: false });

/** The progress bar shown while a navigation runs. */
export const progress = {
  start: () => NProgress.start(),
  done: () => NProgress.done(),
};
