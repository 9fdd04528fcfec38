package dev.aerun.appengine.descriptor;

import java.util.Optional;

/**
 * {@code <static-error-handlers><handler file error-code?>}.
 *
 * @param file the static file served
 * @param errorCode {@code over_quota}, {@code dos_api_denial} or {@code timeout}; empty means the
 *     default handler
 */
public record StaticErrorHandler(String file, Optional<String> errorCode) {}
