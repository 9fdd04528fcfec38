/**
 * App Engine's bundled services for apps with {@code <app-engine-apis>true</app-engine-apis>} that
 * bundle the App Engine API SDK: what needs no remote service works through a per-request {@code
 * ApiProxy} environment; every remote call fails at once, naming the Google Cloud client library
 * that replaces it (DESIGN §7). The SDK is the app's own: the runtime reaches it by reflection in
 * the app's class loader and never puts it on any class path.
 */
package dev.aerun.runtime.apis;
