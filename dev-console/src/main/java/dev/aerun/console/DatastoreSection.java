package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.util.Fields;

/**
 * The Datastore viewer: the kinds of a namespace, a kind's entities a page at a time (optionally
 * filtered by one property), an entity's properties with their types; edit a property, delete an
 * entity.
 */
final class DatastoreSection implements ConsoleSection {
  static final int PAGE_SIZE = 20;
  private static final int MAX_OFFSET = 100_000;
  private static final int MAX_NAME = 500;

  /** The SDK's namespace names. */
  private static final Pattern NAMESPACE = Pattern.compile("[0-9A-Za-z._-]{0,100}");

  private static final String PATH = ConsoleHandler.PREFIX + "datastore";

  private final Datastore datastore;

  DatastoreSection(Datastore datastore) {
    this.datastore = datastore;
  }

  @Override
  public String name() {
    return "datastore";
  }

  @Override
  public String title() {
    return "Datastore";
  }

  @Override
  public Set<String> pages() {
    return Set.of("", "entity");
  }

  @Override
  public Set<String> actions() {
    return Set.of("edit", "delete");
  }

  @Override
  public Answer pageBlocking(String page, Fields query, String token)
      throws ApiCallException, InterruptedException {
    return page.isEmpty() ? kindsBlocking(query) : entityBlocking(query, token);
  }

  @Override
  public Answer actBlocking(String action, Fields form)
      throws ApiCallException, InterruptedException {
    EntityKey key = key(form);
    if (action.equals("delete")) {
      datastore.deleteBlocking(key);
      return Answer.redirect(
          Html.url(
              PATH, "ns", emptyToNull(key.namespace()), "kind", key.kind(), "done", "deleted"));
    }
    Optional<Datastore.Entity> entity = datastore.getBlocking(key);
    if (entity.isEmpty()) {
      return Answer.error(404, title(), "No entity " + key + ": it was deleted meanwhile.");
    }
    String value = form.getValue("value");
    datastore.setPropertyBlocking(
        entity.get(),
        required(form, "property"),
        required(form, "type"),
        value == null ? "" : value);
    return Answer.redirect(Html.url(PATH + "/entity", "key", key.websafe(), "done", "saved"));
  }

  private Answer kindsBlocking(Fields query) throws ApiCallException, InterruptedException {
    String namespace = namespace(query);
    String kind = optional(query, "kind");
    Html html = new Html();
    html.done(done(query.getValue("done")));
    html.tag("<form method=\"get\" action=\"")
        .text(PATH)
        .tag("\">Namespace ")
        .tag("<input name=\"ns\" value=\"")
        .text(namespace)
        .tag("\" placeholder=\"(default)\"> <button type=\"submit\">Show</button></form>\n");
    List<String> kinds = datastore.kindsBlocking(namespace);
    html.tag("<h2>Kinds</h2>\n");
    if (kinds.isEmpty()) {
      html.tag("<p class=\"note\">No entities in this namespace.</p>\n");
    } else {
      html.tag("<ul>");
      for (String k : kinds) {
        html.tag("<li>");
        if (k.equals(kind)) {
          html.element("strong", k);
        } else {
          html.link(k, PATH, "ns", emptyToNull(namespace), "kind", k);
        }
        html.tag("</li>");
      }
      html.tag("</ul>\n");
    }
    if (kind != null) {
      entities(html, namespace, kind, query);
    }
    return Answer.page(title(), html.toString());
  }

  private void entities(Html html, String namespace, String kind, Fields query)
      throws ApiCallException, InterruptedException {
    int offset = number(query, "offset", 0, MAX_OFFSET);
    Datastore.Filter filter = filter(query);
    html.tag("<h2>Entities of kind ").element("code", kind).tag("</h2>\n");
    filterForm(html, namespace, kind, filter);
    Datastore.Page page = datastore.entitiesBlocking(namespace, kind, filter, offset, PAGE_SIZE);
    if (page.entities().isEmpty()) {
      html.tag("<p class=\"note\">No entities")
          .text(filter == null ? "" : " match the filter")
          .tag(offset > 0 ? " on this page" : "")
          .tag(".</p>\n");
    } else {
      Set<String> columns = new LinkedHashSet<>();
      page.entities().forEach(e -> e.properties().forEach(p -> columns.add(p.name())));
      html.tag("<table><tr><th>Key</th>");
      for (String column : columns) {
        html.element("th", column);
      }
      html.tag("</tr>\n");
      for (Datastore.Entity entity : page.entities()) {
        html.tag("<tr><td>")
            .link(entity.key().toString(), PATH + "/entity", "key", entity.key().websafe())
            .tag("</td>");
        for (String column : columns) {
          html.tag("<td>");
          entity.property(column).ifPresent(p -> values(html, p));
          html.tag("</td>");
        }
        html.tag("</tr>\n");
      }
      html.tag("</table>\n");
    }
    html.tag("<p>Entities ")
        .text(page.entities().isEmpty() ? 0 : offset + 1)
        .tag("&ndash;")
        .text(offset + page.entities().size())
        .tag(" ");
    // Arrays.asList: the default namespace is a null value, left out of the links.
    List<String> params =
        new ArrayList<>(Arrays.asList("ns", emptyToNull(namespace), "kind", kind));
    if (filter != null) {
      params.addAll(
          List.of(
              "fp",
              filter.property(),
              "fo",
              filter.operator(),
              "ft",
              filter.type(),
              "fv",
              filter.value()));
    }
    if (offset > 0) {
      List<String> previous = new ArrayList<>(params);
      previous.addAll(List.of("offset", Integer.toString(Math.max(0, offset - PAGE_SIZE))));
      html.link("Previous page", PATH, previous.toArray(String[]::new)).tag(" ");
    }
    if (page.more()) {
      List<String> next = new ArrayList<>(params);
      next.addAll(List.of("offset", Integer.toString(offset + PAGE_SIZE)));
      html.link("Next page", PATH, next.toArray(String[]::new));
    }
    html.tag("</p>\n");
  }

  private static void values(Html html, Datastore.Property property) {
    if (property.values().size() == 1) {
      html.text(property.values().get(0).display());
      return;
    }
    html.tag("[");
    for (int i = 0; i < property.values().size(); i++) {
      html.tag(i == 0 ? "" : ", ").text(property.values().get(i).display());
    }
    html.tag("]");
  }

  private static void filterForm(
      Html html, String namespace, String kind, Datastore.Filter filter) {
    html.tag("<form method=\"get\" action=\"")
        .text(PATH)
        .tag("\">")
        .hidden("ns", namespace)
        .hidden("kind", kind)
        .tag("Filter: property <input name=\"fp\" value=\"")
        .text(filter == null ? "" : filter.property())
        .tag("\"> <select name=\"fo\">");
    for (String op : List.of("=", "<", "<=", ">", ">=")) {
      html.tag("<option")
          .tag(filter != null && filter.operator().equals(op) ? " selected" : "")
          .tag(" value=\"")
          .text(op)
          .tag("\">")
          .text(op)
          .tag("</option>");
    }
    html.tag("</select> <select name=\"ft\">");
    for (String type : List.of("String", "Long", "Double", "Boolean", "Date")) {
      html.tag("<option")
          .tag(filter != null && filter.type().equals(type) ? " selected" : "")
          .tag(">")
          .text(type)
          .tag("</option>");
    }
    html.tag("</select> <input name=\"fv\" value=\"")
        .text(filter == null ? "" : filter.value())
        .tag("\"> <button type=\"submit\">Filter</button> ");
    if (filter != null) {
      html.link("Clear the filter", PATH, "ns", emptyToNull(namespace), "kind", kind);
    }
    html.tag("</form>\n");
  }

  private Answer entityBlocking(Fields query, String token)
      throws ApiCallException, InterruptedException {
    EntityKey key = key(query);
    Optional<Datastore.Entity> found = datastore.getBlocking(key);
    if (found.isEmpty()) {
      return Answer.error(404, title(), "No entity " + key + ".");
    }
    Datastore.Entity entity = found.get();
    Html html = new Html();
    html.done(done(query.getValue("done")));
    html.tag("<h2>")
        .text(key)
        .tag("</h2>\n<p>Kind ")
        .element("code", key.kind())
        .tag(", namespace ")
        .element("code", key.namespace().isEmpty() ? "(default)" : key.namespace())
        .tag(", app ")
        .element("code", key.app())
        .tag(". Key (web-safe) ")
        .element("code", key.websafe())
        .tag(". ")
        .link(
            "All " + key.kind() + " entities",
            PATH,
            "ns",
            emptyToNull(key.namespace()),
            "kind",
            key.kind())
        .tag("</p>\n");
    html.tag(
        "<table><tr><th>Property</th><th>Type</th><th>Indexed</th><th>Value</th>"
            + "<th>Edit</th></tr>\n");
    for (Datastore.Property property : entity.properties()) {
      html.tag("<tr>").element("td", property.name()).tag("<td>");
      List<String> types = property.values().stream().map(PropertyValue::type).distinct().toList();
      html.text(property.multiple() ? "List of " + String.join(", ", types) : types.get(0))
          .tag("</td>")
          .element("td", property.indexed() ? "yes" : "no")
          .tag("<td>");
      values(html, property);
      html.tag("</td><td>");
      if (property.editable()) {
        editForm(html, entity.key(), property, token);
      } else {
        html.tag("<span class=\"note\">not here</span>");
      }
      html.tag("</td></tr>\n");
    }
    html.tag("</table>\n");
    html.actionForm(PATH + "/delete", token, "Delete this entity", "key", key.websafe());
    return Answer.page(title(), html.toString());
  }

  private static void editForm(
      Html html, EntityKey key, Datastore.Property property, String token) {
    PropertyValue value = property.values().get(0);
    html.tag("<form class=\"inline\" method=\"post\" action=\"")
        .text(PATH + "/edit")
        .tag("\">")
        .hidden(ConsoleHandler.TOKEN, token)
        .hidden("key", key.websafe())
        .hidden("property", property.name());
    if (value.type().equals("null")) {
      html.tag("<select name=\"type\">");
      for (String type : PropertyValue.EDITABLE.stream().sorted().toList()) {
        html.tag("<option>").text(type).tag("</option>");
      }
      html.tag("</select> ");
    } else {
      html.hidden("type", value.type());
    }
    if (value.type().equals("Text")) {
      html.tag("<textarea name=\"value\" rows=\"4\" cols=\"60\">")
          .text(value.editText())
          .tag("</textarea>");
    } else {
      html.tag("<input name=\"value\" size=\"40\" value=\"").text(value.editText()).tag("\">");
    }
    html.tag(" <button type=\"submit\">Save</button></form>");
  }

  /** The message of the action a redirect names; null for none. */
  private static String done(String done) {
    return done == null
        ? null
        : switch (done) {
          case "deleted" -> "The entity was deleted.";
          case "saved" -> "The property was saved.";
          default -> null;
        };
  }

  private static EntityKey key(Fields fields) {
    return EntityKey.fromWebsafe(required(fields, "key"));
  }

  private static Datastore.Filter filter(Fields query) {
    String property = optional(query, "fp");
    if (property == null) {
      return null;
    }
    String operator = query.getValue("fo") == null ? "=" : query.getValue("fo");
    String type = query.getValue("ft") == null ? "String" : query.getValue("ft");
    if (!Datastore.OPERATORS.containsKey(operator)) {
      throw new IllegalArgumentException("unknown filter operator " + operator);
    }
    if (!PropertyValue.FILTERABLE.contains(type)) {
      throw new IllegalArgumentException("a filter's value cannot be a " + type);
    }
    String value = query.getValue("fv") == null ? "" : query.getValue("fv");
    return new Datastore.Filter(property, operator, type, value);
  }

  private static String namespace(Fields query) {
    String namespace = query.getValue("ns") == null ? "" : query.getValue("ns").trim();
    if (!NAMESPACE.matcher(namespace).matches()) {
      throw new IllegalArgumentException(
          "a namespace is up to 100 letters, digits, '.', '-' and '_'");
    }
    return namespace;
  }

  private static String optional(Fields fields, String name) {
    String value = fields.getValue(name);
    if (value == null || value.isEmpty()) {
      return null;
    }
    if (value.length() > MAX_NAME) {
      throw new IllegalArgumentException(name + " is too long");
    }
    return value;
  }

  static String required(Fields fields, String name) {
    String value = optional(fields, name);
    if (value == null) {
      throw new IllegalArgumentException("the form has no " + name);
    }
    return value;
  }

  static int number(Fields fields, String name, int fallback, int max) {
    String value = fields.getValue(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 0 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(name + " must be a whole number from 0 to " + max);
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
