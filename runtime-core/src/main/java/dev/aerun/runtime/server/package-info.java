/** The pieces every client-facing Jetty server is built from, shared by both serving modes. */
package dev.aerun.runtime.server;
