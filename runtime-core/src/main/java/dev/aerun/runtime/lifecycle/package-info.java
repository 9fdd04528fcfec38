/**
 * The instance's lifecycle as the platform sees it: the health path ({@link
 * dev.aerun.runtime.lifecycle.HealthHandler}) and draining ({@link
 * dev.aerun.runtime.lifecycle.DrainHandler}) on the public servers, and the warm-up and start
 * requests in front of the app ({@link dev.aerun.runtime.lifecycle.WarmupHandler}). Both serving
 * modes use the same classes.
 */
package dev.aerun.runtime.lifecycle;
