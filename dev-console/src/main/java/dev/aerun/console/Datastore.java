package dev.aerun.console;

import dev.aerun.runtime.apis.ApiCallException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Datastore as the console reads and changes it: {@code datastore_v3} calls to the API host,
 * the same the app's SDK makes ({@code RunQuery}/{@code Next} for kinds, through the {@code
 * __kind__} metadata kind, and entities; {@code Get}, {@code Put}, {@code Delete}), their messages
 * written and read by hand ({@link ProtoWriter}, {@link ProtoMessage}).
 *
 * <p>Field numbers: {@code Query {app = 1, kind = 3, Filter group 4 {op = 6, property = 14}, offset
 * = 12, limit = 16, keys_only = 21, count = 23, name_space = 29}}, {@code QueryResult {cursor = 1,
 * result = 2, more_results = 3}}, {@code NextRequest {cursor = 1, count = 2}}, {@code GetRequest
 * {key = 1}}, {@code GetResponse {Entity group 1 {entity = 2}}}, {@code PutRequest {entity = 1}},
 * {@code DeleteRequest {key = 6}}, {@code EntityProto {key = 13, property = 14, raw_property =
 * 15}}, {@code Property {meaning = 1, name = 3, multiple = 4, value = 5}}.
 */
final class Datastore {
  /**
   * The filter operators a developer can choose: {@code Query.Filter.Operator} values. Not {@code
   * !=}: the SDK splits it into two queries itself, the service never gets it.
   */
  static final Map<String, Integer> OPERATORS = Map.of("=", 5, "<", 1, "<=", 2, ">", 3, ">=", 4);

  /** How many kinds the kinds list reads at most. */
  static final int MAX_KINDS = 1000;

  private final HostCalls host;
  private final String appId;

  Datastore(HostCalls host, String appId) {
    this.host = host;
    this.appId = appId;
  }

  /**
   * One value of a property filter.
   *
   * @param property the property's name
   * @param operator one of {@link #OPERATORS}' keys
   * @param type one of {@link PropertyValue#FILTERABLE}
   * @param value the value as typed
   */
  record Filter(String property, String operator, String type, String value) {}

  /**
   * A property of an entity: its name and every value it has (more than one for a list).
   *
   * @param indexed whether it is indexed ({@code property}) or not ({@code raw_property})
   * @param multiple whether it is a list
   */
  record Property(String name, boolean indexed, boolean multiple, List<PropertyValue> values) {
    boolean editable() {
      return !multiple && values.size() == 1 && values.get(0).editable();
    }
  }

  /**
   * An entity as read.
   *
   * @param key its key
   * @param proto its {@code EntityProto}, for writing it back
   * @param properties its properties by name, in the order first stored
   */
  record Entity(EntityKey key, ProtoMessage proto, List<Property> properties) {
    Optional<Property> property(String name) {
      return properties.stream().filter(p -> p.name().equals(name)).findFirst();
    }
  }

  /** A page of a kind's entities, and whether more follow. */
  record Page(List<Entity> entities, boolean more) {}

  /** The kinds of {@code namespace}, sorted; the Datastore's own ({@code __...__}) left out. */
  List<String> kindsBlocking(String namespace) throws ApiCallException, InterruptedException {
    ProtoWriter query = query(namespace).string(3, "__kind__").bool(21, true);
    List<String> kinds = new ArrayList<>();
    for (ProtoMessage entity : runQueryBlocking(query, MAX_KINDS)) {
      EntityKey key = EntityKey.of(entity.bytes(13));
      String kind = key.path().get(key.path().size() - 1).name();
      if (!(kind.startsWith("__") && kind.endsWith("__"))) {
        kinds.add(kind);
      }
    }
    kinds.sort(null);
    return kinds;
  }

  /**
   * Entities {@code offset} to {@code offset + count} of {@code kind} (in key order, or the
   * filtered property's order), optionally filtered.
   *
   * @throws IllegalArgumentException when the filter's value does not parse as its type
   */
  Page entitiesBlocking(String namespace, String kind, Filter filter, int offset, int count)
      throws ApiCallException, InterruptedException {
    ProtoWriter query = query(namespace).string(3, kind);
    if (filter != null) {
      Integer op = OPERATORS.get(filter.operator());
      if (op == null || !PropertyValue.FILTERABLE.contains(filter.type())) {
        throw new IllegalArgumentException("unknown filter operator or type");
      }
      ProtoWriter property = new ProtoWriter();
      int meaning = PropertyValue.meaningOf(filter.type());
      if (meaning != PropertyValue.NO_MEANING) {
        property.varint(1, meaning);
      }
      property
          .string(3, filter.property())
          .bool(4, false)
          .bytes(5, PropertyValue.encode(filter.type(), filter.value()));
      query.group(4, new ProtoWriter().varint(6, op).message(14, property));
    }
    if (offset > 0) {
      query.varint(12, offset);
    }
    query.varint(16, count + 1);
    List<Entity> entities = new ArrayList<>();
    for (ProtoMessage proto : runQueryBlocking(query, count + 1)) {
      entities.add(entity(proto));
    }
    boolean more = entities.size() > count;
    return new Page(more ? entities.subList(0, count) : entities, more);
  }

  /** The entity {@code key} names, if there is one. */
  Optional<Entity> getBlocking(EntityKey key) throws ApiCallException, InterruptedException {
    ProtoMessage response =
        ProtoMessage.parse(
            host.callBlocking(
                "datastore_v3", "Get", new ProtoWriter().bytes(1, key.reference()).toByteArray()));
    ProtoMessage found = response.group(1);
    return found.has(2) ? Optional.of(entity(found.message(2))) : Optional.empty();
  }

  /** Deletes the entity {@code key} names (nothing happens when there is none). */
  void deleteBlocking(EntityKey key) throws ApiCallException, InterruptedException {
    host.callBlocking(
        "datastore_v3", "Delete", new ProtoWriter().bytes(6, key.reference()).toByteArray());
  }

  /**
   * Writes {@code entity} back with its single-valued property {@code name} set to {@code text},
   * read as {@code type} (the property's own, or {@code null} to clear it); everything else of the
   * entity, and whether the property is indexed, stays as it was.
   *
   * @throws IllegalArgumentException when the property cannot be edited or the text does not parse
   *     as the type
   */
  void setPropertyBlocking(Entity entity, String name, String type, String text)
      throws ApiCallException, InterruptedException {
    Property property =
        entity
            .property(name)
            .filter(Property::editable)
            .orElseThrow(
                () -> new IllegalArgumentException("property " + name + " cannot be edited here"));
    if (!PropertyValue.EDITABLE.contains(type)) {
      throw new IllegalArgumentException("a " + type + " cannot be written here");
    }
    byte[] value = PropertyValue.encode(type, text);
    int meaning = PropertyValue.meaningOf(type);
    // A Text is never indexed; any other type keeps the property's own choice.
    int field = type.equals("Text") || !property.indexed() ? 15 : 14;
    ProtoWriter replacement = new ProtoWriter();
    if (meaning != PropertyValue.NO_MEANING) {
      replacement.varint(1, meaning);
    }
    replacement.string(3, name).bool(4, false).bytes(5, value);
    List<ProtoMessage.Field> fields = new ArrayList<>();
    boolean replaced = false;
    for (ProtoMessage.Field f : entity.proto().fields()) {
      boolean isProperty = (f.number() == 14 || f.number() == 15) && f.bytes() != null;
      if (isProperty && ProtoMessage.parse(f.bytes()).string(3).equals(name)) {
        if (!replaced) {
          fields.add(
              new ProtoMessage.Field(
                  field, ProtoMessage.LENGTH_DELIMITED, 0, replacement.toByteArray(), null));
          replaced = true;
        }
      } else {
        fields.add(f);
      }
    }
    byte[] updated = new ProtoMessage(fields).toByteArray();
    host.callBlocking("datastore_v3", "Put", new ProtoWriter().bytes(1, updated).toByteArray());
  }

  private ProtoWriter query(String namespace) {
    ProtoWriter query = new ProtoWriter().string(1, appId);
    if (!namespace.isEmpty()) {
      query.string(29, namespace);
    }
    return query;
  }

  /** Runs a query and reads its results until {@code wanted} or the end, then lets it go. */
  private List<ProtoMessage> runQueryBlocking(ProtoWriter query, int wanted)
      throws ApiCallException, InterruptedException {
    query.varint(23, wanted);
    ProtoMessage result =
        ProtoMessage.parse(host.callBlocking("datastore_v3", "RunQuery", query.toByteArray()));
    List<ProtoMessage> entities = new ArrayList<>(result.messages(2));
    while (result.bool(3) && entities.size() < wanted && result.has(1)) {
      byte[] next =
          new ProtoWriter()
              .bytes(1, result.bytes(1))
              .varint(2, wanted - entities.size())
              .toByteArray();
      ProtoMessage page = ProtoMessage.parse(host.callBlocking("datastore_v3", "Next", next));
      if (page.messages(2).isEmpty() && page.bool(3)) {
        break; // no progress: stop rather than loop
      }
      entities.addAll(page.messages(2));
      result = page.has(1) ? page : new ProtoMessage(List.of());
    }
    if (result.bool(3) && result.has(1)) {
      try {
        host.callBlocking("datastore_v3", "DeleteCursor", result.bytes(1));
      } catch (ApiCallException e) {
        // The host forgets it on its own after a while.
      }
    }
    return entities.size() > wanted ? entities.subList(0, wanted) : entities;
  }

  /** Reads an {@code EntityProto}, grouping the values of list properties. */
  static Entity entity(ProtoMessage proto) {
    EntityKey key = EntityKey.of(proto.bytes(13));
    Map<String, Property> properties = new LinkedHashMap<>();
    for (ProtoMessage.Field f : proto.fields()) {
      if ((f.number() != 14 && f.number() != 15) || f.bytes() == null) {
        continue;
      }
      ProtoMessage property = ProtoMessage.parse(f.bytes());
      String name = property.string(3);
      PropertyValue value = PropertyValue.of((int) property.bits(1), property.message(5));
      Property known = properties.get(name);
      List<PropertyValue> values = new ArrayList<>();
      if (known != null) {
        values.addAll(known.values());
      }
      values.add(value);
      properties.put(
          name,
          new Property(
              name,
              known == null ? f.number() == 14 : known.indexed() && f.number() == 14,
              property.bool(4) || values.size() > 1,
              List.copyOf(values)));
    }
    return new Entity(key, proto, List.copyOf(properties.values()));
  }
}
