package dev.aerun.stage.oci;

import java.io.IOException;

/** Lets tests in other packages build images with {@link ImageTool}. */
public final class ImageToolAccess {
  private ImageToolAccess() {}

  public static String run(String... args) throws IOException {
    return ImageTool.run(args);
  }
}
