/**
 * Development-only request handling ({@code --development}): hot redeploy of the app in place, the
 * dev error pages, and the {@code /_ah/dev} status page. None of it is in a production server.
 */
package dev.aerun.runtime.dev;
