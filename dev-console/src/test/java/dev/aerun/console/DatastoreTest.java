package dev.aerun.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.api.blobstore.BlobKey;
import com.google.appengine.api.datastore.Blob;
import com.google.appengine.api.datastore.Category;
import com.google.appengine.api.datastore.Email;
import com.google.appengine.api.datastore.EmbeddedEntity;
import com.google.appengine.api.datastore.Entity;
import com.google.appengine.api.datastore.EntityTranslator;
import com.google.appengine.api.datastore.GeoPt;
import com.google.appengine.api.datastore.IMHandle;
import com.google.appengine.api.datastore.Key;
import com.google.appengine.api.datastore.KeyFactory;
import com.google.appengine.api.datastore.Link;
import com.google.appengine.api.datastore.PhoneNumber;
import com.google.appengine.api.datastore.PostalAddress;
import com.google.appengine.api.datastore.Rating;
import com.google.appengine.api.datastore.ShortBlob;
import com.google.appengine.api.datastore.Text;
import com.google.appengine.api.users.User;
import com.google.appengine.repackaged.com.google.storage.onestore.v3_bytes.proto2api.OnestoreEntity.EntityProto;
import com.google.apphosting.datastore_bytes.proto2api.DatastoreV3Pb;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The hand-written {@code datastore_v3} messages against Google's own classes: what the console
 * sends parses as the request it means, what the SDK writes reads as the types the SDK gives, and
 * what the console writes back the SDK reads as the value typed in.
 */
class DatastoreTest {
  /** The calls made, and the answers to give, in order. */
  private final RecordingHost host = new RecordingHost();

  private final List<String> calls = host.calls;
  private final List<byte[]> requests = host.requests;
  private final List<byte[]> answers = host.answers;
  private final Datastore datastore = new Datastore(host, TestEnvironment.APP);

  @BeforeEach
  void environment() {
    TestEnvironment.install();
  }

  @AfterEach
  void noEnvironment() {
    TestEnvironment.remove();
  }

  private static Entity typed() {
    Entity entity =
        new Entity(KeyFactory.createKey(KeyFactory.createKey("Parent", 7), "Typed", "t"));
    entity.setProperty("string", "plain <b>");
    entity.setProperty("long", -42L);
    entity.setProperty("double", 2.5);
    entity.setProperty("boolean", true);
    entity.setProperty("date", Date.from(Instant.parse("2024-05-01T12:00:00.123Z")));
    entity.setProperty("text", new Text("long text"));
    entity.setProperty("blob", new Blob(new byte[] {1, 2, 3}));
    entity.setProperty("shortBlob", new ShortBlob(new byte[] {4}));
    entity.setProperty("geoPt", new GeoPt(1.5f, -2.25f));
    entity.setProperty("user", new User("u@example.com", "gmail.com"));
    entity.setProperty("key", KeyFactory.createKey("Other", "o"));
    entity.setProperty("email", new Email("e@example.com"));
    entity.setProperty("link", new Link("http://example.com/"));
    entity.setProperty("category", new Category("cat"));
    entity.setProperty("phone", new PhoneNumber("+1 555"));
    entity.setProperty("address", new PostalAddress("1 Street"));
    entity.setProperty("rating", new Rating(77));
    entity.setProperty("im", new IMHandle(IMHandle.Scheme.xmpp, "im@example.com"));
    entity.setProperty("blobKey", new BlobKey("bk"));
    EmbeddedEntity embedded = new EmbeddedEntity();
    embedded.setProperty("inner", "x");
    entity.setProperty("embedded", embedded);
    entity.setProperty("nothing", null);
    entity.setProperty("list", List.of("a", "b"));
    entity.setUnindexedProperty("unindexed", "u");
    return entity;
  }

  @Test
  void sdkEntities_readAsTheSdksTypes() {
    Datastore.Entity read =
        Datastore.entity(ProtoMessage.parse(EntityTranslator.convertToPb(typed()).toByteArray()));
    assertEquals("Parent(7)/Typed(\"t\")", read.key().toString());
    Map<String, String> types =
        Map.ofEntries(
            Map.entry("string", "String"),
            Map.entry("long", "Long"),
            Map.entry("double", "Double"),
            Map.entry("boolean", "Boolean"),
            Map.entry("date", "Date"),
            Map.entry("text", "Text"),
            Map.entry("blob", "Blob"),
            Map.entry("shortBlob", "ShortBlob"),
            Map.entry("geoPt", "GeoPt"),
            Map.entry("user", "User"),
            Map.entry("key", "Key"),
            Map.entry("email", "Email"),
            Map.entry("link", "Link"),
            Map.entry("category", "Category"),
            Map.entry("phone", "PhoneNumber"),
            Map.entry("address", "PostalAddress"),
            Map.entry("rating", "Rating"),
            Map.entry("im", "IMHandle"),
            Map.entry("blobKey", "BlobKey"),
            Map.entry("embedded", "EmbeddedEntity"),
            Map.entry("nothing", "null"),
            Map.entry("unindexed", "String"));
    types.forEach(
        (name, type) ->
            assertEquals(type, read.property(name).orElseThrow().values().get(0).type(), name));
    assertEquals("plain <b>", display(read, "string"));
    assertEquals("-42", display(read, "long"));
    assertEquals("2.5", display(read, "double"));
    assertEquals("true", display(read, "boolean"));
    assertEquals("2024-05-01T12:00:00.123Z", display(read, "date"));
    assertEquals("long text", display(read, "text"));
    assertEquals("3 bytes: 010203", display(read, "blob"));
    assertEquals("1.5, -2.25", display(read, "geoPt"));
    assertEquals("u@example.com", display(read, "user"));
    assertEquals("Other(\"o\")", display(read, "key"));
    assertEquals("77", display(read, "rating"));
    Datastore.Property list = read.property("list").orElseThrow();
    assertTrue(list.multiple());
    assertEquals(List.of("a", "b"), list.values().stream().map(PropertyValue::display).toList());
    assertFalse(read.property("text").orElseThrow().indexed());
    assertFalse(read.property("unindexed").orElseThrow().indexed());
    assertTrue(read.property("string").orElseThrow().indexed());
    assertFalse(read.property("list").orElseThrow().editable());
    assertFalse(read.property("blob").orElseThrow().editable());
    assertTrue(read.property("date").orElseThrow().editable());
  }

  @Test
  void datesOfAnyRange_areShown() {
    assertEquals("1969-12-31T23:59:59.999999Z", PropertyValue.instant(-1).toString());
    assertEquals(
        Instant.ofEpochSecond(Long.MAX_VALUE / 1_000_000, 775_807_000),
        PropertyValue.instant(Long.MAX_VALUE));
  }

  private static String display(Datastore.Entity entity, String name) {
    return entity.property(name).orElseThrow().values().get(0).display();
  }

  @Test
  void websafeKeys_areTheSdks() {
    Key key = KeyFactory.createKey(KeyFactory.createKey("Parent", 7), "Typed", "t");
    byte[] reference = EntityTranslator.convertToPb(new Entity(key)).getKey().toByteArray();
    EntityKey read = EntityKey.of(reference);
    assertEquals(key, KeyFactory.stringToKey(read.websafe()));
    assertEquals(read, EntityKey.fromWebsafe(KeyFactory.keyToString(key)));
    assertEquals("Typed", read.kind());
    assertEquals(TestEnvironment.APP, read.app());
    assertThrows(IllegalArgumentException.class, () -> EntityKey.fromWebsafe("not a key!"));
  }

  @Test
  void editedProperties_readBackAsTheTypedValues_everythingElseKept() throws Exception {
    Entity original = typed();
    EntityProto proto = EntityTranslator.convertToPb(original);
    Object[][] edits = {
      {"long", "Long", "43", 43L},
      {"double", "Double", "-0.5", -0.5},
      {"boolean", "Boolean", "false", false},
      {"date", "Date", "2030-01-02T03:04:05Z", Date.from(Instant.parse("2030-01-02T03:04:05Z"))},
      {"text", "Text", "<new>", new Text("<new>")},
      {"string", "String", "changed", "changed"},
      {"email", "Email", "x@example.com", new Email("x@example.com")},
      {"rating", "Rating", "5", new Rating(5)},
      {"unindexed", "String", "still unindexed", "still unindexed"},
      {"nothing", "Long", "7", 7L},
    };
    for (Object[] edit : edits) {
      answers.clear();
      requests.clear();
      Datastore.Entity read = Datastore.entity(ProtoMessage.parse(proto.toByteArray()));
      datastore.setPropertyBlocking(read, (String) edit[0], (String) edit[1], (String) edit[2]);
      DatastoreV3Pb.PutRequest put =
          DatastoreV3Pb.PutRequest.parseFrom(requests.get(requests.size() - 1));
      Entity written = EntityTranslator.createFromPb(put.getEntity(0));
      assertEquals(edit[3], written.getProperty((String) edit[0]), (String) edit[0]);
      for (String other : original.getProperties().keySet()) {
        if (!other.equals(edit[0])) {
          assertEquals(original.getProperty(other), written.getProperty(other), other);
          assertEquals(
              original.isUnindexedProperty(other), written.isUnindexedProperty(other), other);
        }
      }
      assertEquals(original.getKey(), written.getKey());
    }
    Datastore.Entity read = Datastore.entity(ProtoMessage.parse(proto.toByteArray()));
    assertThrows(
        IllegalArgumentException.class,
        () -> datastore.setPropertyBlocking(read, "long", "Long", "forty"));
    assertThrows(
        IllegalArgumentException.class,
        () -> datastore.setPropertyBlocking(read, "list", "String", "x"));
    assertThrows(
        IllegalArgumentException.class,
        () -> datastore.setPropertyBlocking(read, "blob", "Blob", "x"));
  }

  @Test
  void kinds_areAKindMetadataQuery_throughNextUntilTheEnd() throws Exception {
    DatastoreV3Pb.QueryResult.Builder first =
        DatastoreV3Pb.QueryResult.newBuilder()
            .setMoreResults(true)
            .setCursor(DatastoreV3Pb.Cursor.newBuilder().setCursor(99).setApp(TestEnvironment.APP));
    first.addResult(kind("Zebra"));
    first.addResult(kind("__Stat_Total__"));
    DatastoreV3Pb.QueryResult.Builder last =
        DatastoreV3Pb.QueryResult.newBuilder().setMoreResults(false);
    last.addResult(kind("Apple"));
    answers.add(first.build().toByteArray());
    answers.add(last.build().toByteArray());

    assertEquals(List.of("Apple", "Zebra"), datastore.kindsBlocking("ns1"));
    assertEquals(List.of("datastore_v3.RunQuery", "datastore_v3.Next"), calls);
    DatastoreV3Pb.Query query = DatastoreV3Pb.Query.parseFrom(requests.get(0));
    assertEquals(TestEnvironment.APP, query.getApp());
    assertEquals("ns1", query.getNameSpace());
    assertEquals("__kind__", query.getKind());
    assertTrue(query.getKeysOnly());
    DatastoreV3Pb.NextRequest next = DatastoreV3Pb.NextRequest.parseFrom(requests.get(1));
    assertEquals(99, next.getCursor().getCursor());
  }

  private static EntityProto kind(String name) {
    return EntityTranslator.convertToPb(new Entity(KeyFactory.createKey("__kind__", name)));
  }

  @Test
  void entities_areAQueryWithItsFilterOffsetAndLimit() throws Exception {
    DatastoreV3Pb.QueryResult.Builder result =
        DatastoreV3Pb.QueryResult.newBuilder().setMoreResults(false);
    for (int i = 0; i < 3; i++) {
      result.addResult(EntityTranslator.convertToPb(new Entity("Greeting", "g" + i)));
    }
    answers.add(result.build().toByteArray());
    Datastore.Page page =
        datastore.entitiesBlocking(
            "",
            "Greeting",
            new Datastore.Filter("when", ">=", "Date", "2024-01-01T00:00:00Z"),
            40,
            2);
    assertEquals(2, page.entities().size());
    assertTrue(page.more());
    DatastoreV3Pb.Query query = DatastoreV3Pb.Query.parseFrom(requests.get(0));
    assertEquals("Greeting", query.getKind());
    assertFalse(query.hasNameSpace());
    assertEquals(40, query.getOffset());
    assertEquals(3, query.getLimit());
    DatastoreV3Pb.Query.Filter filter = query.getFilter(0);
    assertEquals(DatastoreV3Pb.Query.Filter.Operator.GREATER_THAN_OR_EQUAL, filter.getOp());
    assertEquals("when", filter.getProperty(0).getName());
    assertEquals(
        Instant.parse("2024-01-01T00:00:00Z").toEpochMilli() * 1000,
        filter.getProperty(0).getValue().getInt64Value());
    assertEquals(
        com.google.appengine.repackaged.com.google.storage.onestore.v3_bytes.proto2api
            .OnestoreEntity.Property.Meaning.GD_WHEN,
        filter.getProperty(0).getMeaning());
  }

  @Test
  void getAndDelete_nameTheKey() throws Exception {
    Entity entity = new Entity("Greeting", "g");
    EntityProto proto = EntityTranslator.convertToPb(entity);
    EntityKey key = EntityKey.of(proto.getKey().toByteArray());
    answers.add(
        DatastoreV3Pb.GetResponse.newBuilder()
            .addEntity(DatastoreV3Pb.GetResponse.Entity.newBuilder().setEntity(proto))
            .build()
            .toByteArray());
    assertEquals(key, datastore.getBlocking(key).orElseThrow().key());
    assertEquals(proto.getKey(), DatastoreV3Pb.GetRequest.parseFrom(requests.get(0)).getKey(0));
    answers.add(
        DatastoreV3Pb.GetResponse.newBuilder()
            .addEntity(DatastoreV3Pb.GetResponse.Entity.newBuilder().setKey(proto.getKey()))
            .build()
            .toByteArray());
    assertTrue(datastore.getBlocking(key).isEmpty(), "a key without an entity: not found");
    datastore.deleteBlocking(key);
    assertEquals(proto.getKey(), DatastoreV3Pb.DeleteRequest.parseFrom(requests.get(2)).getKey(0));
  }
}
