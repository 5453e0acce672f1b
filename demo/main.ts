// The demo app entry (index.html loads it): see demo/app.ts.
import './app.js';
