/**
 * The server's entry. Its first line puts signal handlers in place before the rest of the server loads (see
 * early-signals.ts); `serve.ts` starts the server and takes them away once its own are in place.
 */
import { holdEarlySignals } from './early-signals.js';

holdEarlySignals();
await import('./serve.js');
