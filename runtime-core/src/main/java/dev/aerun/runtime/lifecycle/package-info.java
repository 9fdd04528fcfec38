/**
 * The instance's lifecycle as the platform sees it: the health path and draining on the public
 * servers ({@link dev.aerun.runtime.lifecycle.DrainHandler}), and the warm-up and start requests in
 * front of the app ({@link dev.aerun.runtime.lifecycle.WarmupHandler}). Both serving modes use the
 * same classes.
 */
package dev.aerun.runtime.lifecycle;
