/**
 * Legacy mode's front end: the public Jetty server that buffers each request and runs it on the
 * runtime over gRPC ({@link dev.aerun.rpc.front.FrontServer}, {@link
 * dev.aerun.rpc.front.FrontHandler}).
 */
package dev.aerun.rpc.front;
