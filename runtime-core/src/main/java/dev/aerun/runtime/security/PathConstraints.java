package dev.aerun.runtime.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.http.pathmap.MappedResource;
import org.eclipse.jetty.http.pathmap.MatchedResource;
import org.eclipse.jetty.http.pathmap.PathMappings;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.Constraint.Authorization;
import org.eclipse.jetty.security.Constraint.Transport;

/**
 * A webapp's security constraints ({@code web.xml}, fragments, {@code @ServletSecurity}) as App
 * Engine applies them, the same for every EE version and for what the runtime serves outside the
 * servlet chain (static files):
 *
 * <ul>
 *   <li><b>A constraint holds for every method of its paths.</b> The platform turns constraints
 *       into {@code login:} and {@code secure:} on its URL handlers and has no notion of method: a
 *       {@code <http-method>} list or an {@code <http-method-omission>} never leaves a method open.
 *       The one exception only ever closes more: a constraint that forbids (an empty {@code
 *       <auth-constraint/>}) forbids the methods it names, as the servlet spec says.
 *   <li>Constraints on the same URL pattern combine to the strictest: forbidden over a role over
 *       any signed-in user over open; two role lists leave the roles both allow; HTTPS if either
 *       asks for it. (The servlet spec would let a constraint without {@code <auth-constraint>}
 *       open the others; that cannot open a path here.)
 *   <li>Among patterns, the best match decides (exact, then the longest prefix, then extension,
 *       then {@code /}), as in the servlet spec; a pattern that only forbids some methods leaves
 *       the others to the next best match.
 * </ul>
 *
 * <p>Immutable and thread-safe; {@link #forRequest} is a lookup in a path map.
 */
public final class PathConstraints {
  private static final PathConstraints NONE = new PathConstraints(new PathMappings<>());

  /**
   * One constraint mapping as the servlet environment declared it.
   *
   * @param pathSpec the URL pattern
   * @param methods the methods it names ({@code <http-method>}), empty for all
   * @param omissions the methods it leaves out ({@code <http-method-omission>}), empty for none
   * @param constraint what it asks for
   */
  public record Declared(
      String pathSpec, Set<String> methods, Set<String> omissions, Constraint constraint) {
    public Declared {
      methods = upper(methods);
      omissions = upper(omissions);
    }

    private boolean methodSpecific() {
      return !methods.isEmpty() || !omissions.isEmpty();
    }
  }

  /**
   * What one URL pattern asks for.
   *
   * @param all the constraint for every method, or null if the pattern has none for all methods
   * @param forbidden methods forbidden by name
   * @param forbiddenUnless for each forbidding omission, the methods it leaves out
   */
  private record Entry(Constraint all, Set<String> forbidden, List<Set<String>> forbiddenUnless) {
    /** The constraint for {@code method}, or null when this pattern leaves it to the next one. */
    Constraint forMethod(String method) {
      if (forbidden.contains(method)) {
        return Constraint.FORBIDDEN;
      }
      for (Set<String> unless : forbiddenUnless) {
        if (!unless.contains(method)) {
          return Constraint.FORBIDDEN;
        }
      }
      return all;
    }
  }

  private final PathMappings<Entry> mappings;

  private PathConstraints(PathMappings<Entry> mappings) {
    this.mappings = mappings;
  }

  /** No constraint at all. */
  public static PathConstraints none() {
    return NONE;
  }

  /** The constraints {@code declared}, combined as described above. */
  public static PathConstraints of(Collection<Declared> declared) {
    Map<PathSpec, List<Declared>> byPattern = new LinkedHashMap<>();
    for (Declared d : declared) {
      if (d.constraint() != null) {
        byPattern.computeIfAbsent(PathSpec.from(d.pathSpec()), k -> new ArrayList<>()).add(d);
      }
    }
    if (byPattern.isEmpty()) {
      return NONE;
    }
    PathMappings<Entry> mappings = new PathMappings<>();
    byPattern.forEach((pattern, list) -> mappings.put(pattern, entry(list)));
    return new PathConstraints(mappings);
  }

  private static Entry entry(List<Declared> declared) {
    Constraint all = null;
    Set<String> forbidden = new HashSet<>();
    List<Set<String>> forbiddenUnless = new ArrayList<>();
    for (Declared d : declared) {
      boolean forbids = d.constraint().getAuthorization() == Authorization.FORBIDDEN;
      if (forbids && d.methodSpecific()) {
        forbidden.addAll(d.methods());
        if (!d.omissions().isEmpty()) {
          forbiddenUnless.add(d.omissions());
        }
      } else {
        Constraint c = settled(d.constraint());
        all = all == null ? c : strictest(all, c);
      }
    }
    return new Entry(all, Set.copyOf(forbidden), List.copyOf(forbiddenUnless));
  }

  /** {@code c} without {@code INHERIT}: nothing above a URL pattern to inherit from. */
  private static Constraint settled(Constraint c) {
    if (c.getAuthorization() != Authorization.INHERIT && c.getTransport() != Transport.INHERIT) {
      return c;
    }
    return Constraint.from(
        c.getName(),
        c.getTransport() == Transport.INHERIT ? Transport.ANY : c.getTransport(),
        c.getAuthorization() == Authorization.INHERIT
            ? Authorization.ALLOWED
            : c.getAuthorization(),
        c.getRoles());
  }

  /** The constraint that asks for what both {@code a} and {@code b} ask for. */
  static Constraint strictest(Constraint a, Constraint b) {
    Transport transport =
        a.getTransport() == Transport.SECURE || b.getTransport() == Transport.SECURE
            ? Transport.SECURE
            : Transport.ANY;
    Authorization authorization;
    Set<String> roles;
    int rankA = rank(a.getAuthorization());
    int rankB = rank(b.getAuthorization());
    if (rankA == rankB && a.getAuthorization() == Authorization.SPECIFIC_ROLE) {
      roles = new HashSet<>(a.getRoles());
      roles.retainAll(b.getRoles());
      authorization = roles.isEmpty() ? Authorization.FORBIDDEN : Authorization.SPECIFIC_ROLE;
    } else {
      Constraint stricter = rankA >= rankB ? a : b;
      authorization = stricter.getAuthorization();
      roles = stricter.getRoles();
    }
    return Constraint.from(
        a.getName(),
        transport,
        authorization,
        authorization == Authorization.SPECIFIC_ROLE ? roles : Set.of());
  }

  private static int rank(Authorization authorization) {
    return switch (authorization) {
      case FORBIDDEN -> 5;
      case SPECIFIC_ROLE -> 4;
      case KNOWN_ROLE -> 3;
      case ANY_USER -> 2;
      case ALLOWED, INHERIT -> 1;
    };
  }

  /**
   * The constraint for a request of {@code method} to {@code pathInContext} (decoded and
   * normalized), or null when none applies.
   */
  public Constraint forRequest(String pathInContext, String method) {
    if (mappings.size() == 0 || pathInContext == null) {
      return null;
    }
    String upper = method == null ? "" : method.toUpperCase(Locale.ROOT);
    // The best match nearly always decides; only a pattern that just forbids other methods
    // leaves the request to the next one.
    MatchedResource<Entry> best = mappings.getMatched(pathInContext);
    if (best == null) {
      return null;
    }
    Constraint decided = best.getResource().forMethod(upper);
    if (decided != null) {
      return decided;
    }
    for (MappedResource<Entry> match : mappings.getMatches(pathInContext)) {
      Constraint constraint = match.getResource().forMethod(upper);
      if (constraint != null) {
        return constraint;
      }
    }
    return null;
  }

  /** Whether there is no constraint at all. */
  public boolean isEmpty() {
    return mappings.size() == 0;
  }

  private static Set<String> upper(Set<String> methods) {
    if (methods == null || methods.isEmpty()) {
      return Set.of();
    }
    Set<String> upper = new HashSet<>();
    methods.forEach(m -> upper.add(m.trim().toUpperCase(Locale.ROOT)));
    return Set.copyOf(upper);
  }

  @Override
  public String toString() {
    return "PathConstraints" + mappings.getMappings();
  }
}
