/**
 * App Engine's bundled services for apps with {@code <app-engine-apis>true</app-engine-apis>} that
 * bundle the App Engine API SDK: a per-request {@code ApiProxy} environment, the Users service's
 * URLs answered here, and every other call sent to an {@link dev.aerun.runtime.apis.ApiHost} over
 * HTTP in the remote-API envelope (written by hand: no protobuf on the class path), or failing at
 * once, naming its replacement, when there is no host. The SDK is the app's own: the runtime
 * reaches it by reflection in the app's class loader and never puts it on any class path.
 */
package dev.aerun.runtime.apis;
