package dev.aerun.appengine.descriptor;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything {@link RuntimeSelection#resolve(SelectionInput)} looks at, gathered by the caller so
 * that resolution is a pure function (it reads no environment, system property or file itself).
 *
 * @param descriptorRuntime the descriptor's {@code <runtime>}, if any
 * @param descriptorProperties the descriptor's {@code <system-properties>}, file order
 * @param overrides {@code -D} system properties from the command line; a value here overrides the
 *     descriptor's property of the same name (names compared case-insensitively)
 * @param gaeRuntime the {@code GAE_RUNTIME} environment value, if set; a non-blank value overrides
 *     {@code descriptorRuntime}
 * @param launcherMode a serving mode forced by the launcher; wins over every property
 * @param jvmFeatureVersion the running JVM's feature version ({@code Runtime.version().feature()})
 * @param supportedEe the EE versions this runtime build can host
 * @param propertyLocations where the descriptor declared each of {@code descriptorProperties}, as
 *     the {@code <file>:<line>:<column>: property:} a descriptor error starts with (see {@link
 *     AppEngineWebXml#systemPropertyLocations()}); a selection error about a property names it
 */
public record SelectionInput(
    Optional<String> descriptorRuntime,
    Map<String, String> descriptorProperties,
    Map<String, String> overrides,
    Optional<String> gaeRuntime,
    Optional<ServingMode> launcherMode,
    int jvmFeatureVersion,
    Set<EeVersion> supportedEe,
    Map<String, String> propertyLocations) {

  /** What this runtime hosts: EE8, EE10 and EE11. */
  public static final Set<EeVersion> DEFAULT_SUPPORTED_EE =
      Collections.unmodifiableSet(EnumSet.allOf(EeVersion.class));

  /** Copies the collections; nulls become empty values. */
  public SelectionInput {
    descriptorRuntime = descriptorRuntime == null ? Optional.empty() : descriptorRuntime;
    descriptorProperties =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(descriptorProperties == null ? Map.of() : descriptorProperties));
    overrides =
        Collections.unmodifiableMap(new LinkedHashMap<>(overrides == null ? Map.of() : overrides));
    gaeRuntime = gaeRuntime == null ? Optional.empty() : gaeRuntime;
    launcherMode = launcherMode == null ? Optional.empty() : launcherMode;
    supportedEe =
        supportedEe == null || supportedEe.isEmpty()
            ? DEFAULT_SUPPORTED_EE
            : Collections.unmodifiableSet(EnumSet.copyOf(supportedEe));
    propertyLocations =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(propertyLocations == null ? Map.of() : propertyLocations));
  }

  /** Input whose properties have no known location. */
  public SelectionInput(
      Optional<String> descriptorRuntime,
      Map<String, String> descriptorProperties,
      Map<String, String> overrides,
      Optional<String> gaeRuntime,
      Optional<ServingMode> launcherMode,
      int jvmFeatureVersion,
      Set<EeVersion> supportedEe) {
    this(
        descriptorRuntime,
        descriptorProperties,
        overrides,
        gaeRuntime,
        launcherMode,
        jvmFeatureVersion,
        supportedEe,
        Map.of());
  }

  /**
   * Input from a descriptor alone: no overrides, no {@code GAE_RUNTIME}, no launcher mode, the
   * current JVM's feature version, {@link #DEFAULT_SUPPORTED_EE}. Refine with the {@code with*}
   * methods.
   */
  public static SelectionInput of(AppEngineWebXml descriptor) {
    return new SelectionInput(
        descriptor.runtime(),
        descriptor.systemProperties(),
        Map.of(),
        Optional.empty(),
        Optional.empty(),
        Runtime.version().feature(),
        DEFAULT_SUPPORTED_EE,
        descriptor.systemPropertyLocations());
  }

  /** A copy with the given {@code -D} overrides. */
  public SelectionInput withOverrides(Map<String, String> newOverrides) {
    return new SelectionInput(
        descriptorRuntime,
        descriptorProperties,
        newOverrides,
        gaeRuntime,
        launcherMode,
        jvmFeatureVersion,
        supportedEe,
        propertyLocations);
  }

  /** A copy with the given {@code GAE_RUNTIME} value (null or blank means unset). */
  public SelectionInput withGaeRuntime(String value) {
    return new SelectionInput(
        descriptorRuntime,
        descriptorProperties,
        overrides,
        Optional.ofNullable(value).filter(v -> !v.isBlank()),
        launcherMode,
        jvmFeatureVersion,
        supportedEe,
        propertyLocations);
  }

  /** A copy with a launcher-forced mode (null means none). */
  public SelectionInput withLauncherMode(ServingMode mode) {
    return new SelectionInput(
        descriptorRuntime,
        descriptorProperties,
        overrides,
        gaeRuntime,
        Optional.ofNullable(mode),
        jvmFeatureVersion,
        supportedEe,
        propertyLocations);
  }

  /** A copy with another JVM feature version. */
  public SelectionInput withJvmFeatureVersion(int feature) {
    return new SelectionInput(
        descriptorRuntime,
        descriptorProperties,
        overrides,
        gaeRuntime,
        launcherMode,
        feature,
        supportedEe,
        propertyLocations);
  }

  /** A copy with another set of supported EE versions (empty means the default set). */
  public SelectionInput withSupportedEe(Set<EeVersion> supported) {
    return new SelectionInput(
        descriptorRuntime,
        descriptorProperties,
        overrides,
        gaeRuntime,
        launcherMode,
        jvmFeatureVersion,
        supported,
        propertyLocations);
  }
}
