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
import org.eclipse.jetty.server.Request;

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
 *       the others to the next best match. Paths are matched in their {@link CanonicalPath}
 *       spelling: {@code //admin//x} is {@code /admin/x}.
 *   <li>What a constraint asks depends on who asks ({@link Caller}): the platform's own requests
 *       (trusted push tasks, cron jobs, {@code X-Google-Internal-SkipAdminCheck}) need no user and
 *       no HTTPS, as on App Engine, whose task and cron requests pass {@code login:} and {@code
 *       secure:} handlers; the developer at this machine in development needs no HTTPS, which
 *       nothing serves there. A constraint that forbids forbids everyone.
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

  /** Who a request comes from, as far as constraints care. */
  public enum Caller {
    /** Anyone: the constraint as declared. */
    ANYONE,
    /** The developer at this machine, in development: no HTTPS asked. */
    DEVELOPER,
    /**
     * The platform's own (a trusted task, cron or admin-check-skipping request): no user, no HTTPS.
     */
    PLATFORM
  }

  /**
   * What one URL pattern asks for.
   *
   * @param all the constraint for every method, by {@link Caller}; null if the pattern has none for
   *     all methods
   * @param forbidden methods forbidden by name
   * @param forbiddenUnless for each forbidding omission, the methods it leaves out
   */
  private record Entry(Constraint[] all, Set<String> forbidden, List<Set<String>> forbiddenUnless) {
    /**
     * The constraint for {@code method} asked of {@code caller}, or null when this pattern leaves
     * it to the next one.
     */
    Constraint forMethod(String method, Caller caller) {
      if (forbidden.contains(method)) {
        return Constraint.FORBIDDEN;
      }
      // Indexed: an iterator would be allocated on every request, even for an empty list.
      for (int i = 0; i < forbiddenUnless.size(); i++) {
        if (!forbiddenUnless.get(i).contains(method)) {
          return Constraint.FORBIDDEN;
        }
      }
      return all == null ? null : all[caller.ordinal()];
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
    Constraint[] byCaller = null;
    if (all != null) {
      // Made once, so every request of a caller gets the same instance (EE8 caches by it).
      byCaller = new Constraint[Caller.values().length];
      for (Caller caller : Caller.values()) {
        byCaller[caller.ordinal()] = asked(all, caller);
      }
    }
    return new Entry(byCaller, Set.copyOf(forbidden), List.copyOf(forbiddenUnless));
  }

  /** What {@code c} asks of {@code caller}. */
  static Constraint asked(Constraint c, Caller caller) {
    if (caller == Caller.ANYONE || c.getAuthorization() == Authorization.FORBIDDEN) {
      return c;
    }
    Authorization authorization =
        caller == Caller.PLATFORM && AppEngineUsers.needsUser(c)
            ? Authorization.ALLOWED
            : c.getAuthorization();
    if (authorization == c.getAuthorization() && c.getTransport() != Transport.SECURE) {
      return c;
    }
    return Constraint.from(
        c.getName(),
        Transport.ANY,
        authorization,
        authorization == Authorization.SPECIFIC_ROLE ? c.getRoles() : Set.of());
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
   * The constraint for {@code request} to {@code pathInContext} (decoded and normalized): its
   * method's, as asked of its {@link AppEngineUsers#caller caller}; null when none applies.
   */
  public Constraint forRequest(String pathInContext, Request request) {
    if (mappings.size() == 0) {
      return null;
    }
    return forRequest(pathInContext, request.getMethod(), AppEngineUsers.caller(request));
  }

  /**
   * The constraint for a request of {@code method} to {@code pathInContext} (decoded and
   * normalized) from anyone, or null when none applies.
   */
  public Constraint forRequest(String pathInContext, String method) {
    return forRequest(pathInContext, method, Caller.ANYONE);
  }

  /**
   * The constraint for a request of {@code method} to {@code pathInContext} (decoded and
   * normalized) from {@code caller}, or null when none applies.
   */
  public Constraint forRequest(String pathInContext, String method, Caller caller) {
    if (mappings.size() == 0 || pathInContext == null) {
      return null;
    }
    String path = CanonicalPath.of(pathInContext);
    String upper = method == null ? "" : method.toUpperCase(Locale.ROOT);
    // The best match nearly always decides; only a pattern that just forbids other methods
    // leaves the request to the next one.
    MatchedResource<Entry> best = mappings.getMatched(path);
    if (best == null) {
      return null;
    }
    Constraint decided = best.getResource().forMethod(upper, caller);
    if (decided != null) {
      return decided;
    }
    for (MappedResource<Entry> match : mappings.getMatches(path)) {
      Constraint constraint = match.getResource().forMethod(upper, caller);
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
