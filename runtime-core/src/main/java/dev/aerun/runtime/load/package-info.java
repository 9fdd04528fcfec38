/**
 * How much work an instance takes on and for how long: {@link dev.aerun.runtime.load.Capacity} (how
 * many requests run at once, how many wait, and on which threads), {@link
 * dev.aerun.runtime.load.ConcurrencyLimitHandler} (which enforces it on every server that faces
 * clients, in both modes), and {@link dev.aerun.runtime.load.DeadlineHandler} (HttpConnector mode's
 * answer to a request still running at its {@code X-AppEngine-Timeout-Ms} deadline; legacy mode's
 * front end gives the same answer from the call's deadline).
 */
package dev.aerun.runtime.load;
