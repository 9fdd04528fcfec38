/**
 * Users and roles as on App Engine (docs/MIGRATING.md), independent of the EE version: the user of
 * a request is the one the request contract believed ({@link
 * dev.aerun.runtime.contract.RequestAttributes}); role {@code *} is any signed-in user, {@code
 * admin} an admin of the app; trusted cron and task requests pass role constraints. The EE hosts
 * wrap these in their servlet security handlers with a few lines each.
 */
package dev.aerun.runtime.security;
