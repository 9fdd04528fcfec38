/**
 * Legacy mode's front end: the handler that buffers each request and runs it on the runtime over
 * gRPC ({@link dev.aerun.rpc.front.FrontHandler}), on the public server {@code LegacyRpcServer}
 * assembles.
 */
package dev.aerun.rpc.front;
