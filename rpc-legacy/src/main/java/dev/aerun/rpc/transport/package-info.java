/**
 * How legacy mode's front server and runtime talk gRPC: in-process, TCP or a Unix domain socket
 * ({@link dev.aerun.rpc.transport.RpcTransport}).
 */
package dev.aerun.rpc.transport;
