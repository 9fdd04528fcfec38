package dev.aerun.console;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Datastore key: the {@code Reference} message ({@code app = 13, name_space = 20, path = 14
 * {element group 1 {type = 2, id = 3, name = 4}}}) and what is read from it. Its web-safe form (the
 * URL-safe Base64 of the message, as the SDK's {@code KeyFactory.keyToString} writes it) names an
 * entity in the console's links and forms.
 *
 * @param reference the message's bytes
 * @param app the application id
 * @param namespace the namespace, "" for the default one
 * @param path the path from the root to the entity
 */
record EntityKey(byte[] reference, String app, String namespace, List<Element> path) {
  /**
   * One step of a key's path.
   *
   * @param kind the kind
   * @param id the numeric id, 0 when the entity is named
   * @param name the name, "" when it has an id
   */
  record Element(String kind, long id, String name) {
    @Override
    public String toString() {
      return kind + "(" + (name.isEmpty() ? Long.toString(id) : "\"" + name + "\"") + ")";
    }
  }

  EntityKey {
    path = List.copyOf(path);
    if (path.isEmpty()) {
      throw new IllegalArgumentException("a key without a path");
    }
  }

  /** Reads a {@code Reference} message. */
  static EntityKey of(byte[] reference) {
    ProtoMessage message = ProtoMessage.parse(reference);
    List<Element> path = new ArrayList<>();
    for (ProtoMessage element : message.message(14).groups(1)) {
      path.add(new Element(element.string(2), element.bits(3), element.string(4)));
    }
    return new EntityKey(reference, message.string(13), message.string(20), path);
  }

  /**
   * The key a web-safe string names.
   *
   * @throws IllegalArgumentException when {@code websafe} is not one
   */
  static EntityKey fromWebsafe(String websafe) {
    byte[] reference;
    try {
      reference = Base64.getUrlDecoder().decode(websafe.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not an entity key");
    }
    return of(reference);
  }

  String websafe() {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(reference);
  }

  /** The entity's kind: the last element's. */
  String kind() {
    return path.get(path.size() - 1).kind();
  }

  /** The path as the SDK prints it: {@code Parent("a")/Child(12)}. */
  @Override
  public String toString() {
    return path.stream().map(Element::toString).collect(Collectors.joining("/"));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EntityKey k && java.util.Arrays.equals(reference, k.reference);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(reference);
  }
}
