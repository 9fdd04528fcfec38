package dev.aerun.console;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Set;

/**
 * One value of a Datastore property, typed as the SDK types it: the {@code PropertyValue} message
 * ({@code int64Value = 1, booleanValue = 2, stringValue = 3, doubleValue = 4, PointValue group 5 {x
 * = 6, y = 7}, UserValue group 8 {email = 9 ...}, ReferenceValue group 12 {app = 13, name_space =
 * 20, PathElement group 14 {type = 15, id = 16, name = 17}}}) and the property's meaning, which
 * tells a {@code Text} from a {@code String} and a {@code Date} from a {@code Long}.
 *
 * @param type the SDK's name for the type ({@code String}, {@code Long}, {@code Date} ...)
 * @param meaning the property's meaning, as stored
 * @param value the {@code PropertyValue} message
 */
record PropertyValue(String type, int meaning, ProtoMessage value) {
  /** {@code Property.Meaning} values. */
  static final int NO_MEANING = 0;

  static final int ATOM_CATEGORY = 1;
  static final int ATOM_LINK = 2;
  static final int GD_WHEN = 7;
  static final int GD_EMAIL = 8;
  static final int GEORSS_POINT = 9;
  static final int GD_IM = 10;
  static final int GD_PHONENUMBER = 11;
  static final int GD_POSTALADDRESS = 12;
  static final int GD_RATING = 13;
  static final int BLOB = 14;
  static final int TEXT = 15;
  static final int BYTESTRING = 16;
  static final int BLOBKEY = 17;
  static final int ENTITY_PROTO = 19;
  static final int EMPTY_LIST = 24;

  /** The types the console can write a new value of, from text. */
  static final Set<String> EDITABLE =
      Set.of(
          "String",
          "Text",
          "Long",
          "Double",
          "Boolean",
          "Date",
          "Email",
          "Link",
          "Category",
          "PhoneNumber",
          "PostalAddress",
          "Rating",
          "null");

  /** The types a filter value can have. */
  static final Set<String> FILTERABLE = Set.of("String", "Long", "Double", "Boolean", "Date");

  /** How long a shown value may get before it is cut. */
  static final int SHOWN_CHARACTERS = 500;

  /** Types a stored value. */
  static PropertyValue of(int meaning, ProtoMessage value) {
    return new PropertyValue(typeOf(meaning, value), meaning, value);
  }

  private static String typeOf(int meaning, ProtoMessage value) {
    if (value.has(1)) {
      return switch (meaning) {
        case GD_WHEN -> "Date";
        case GD_RATING -> "Rating";
        default -> "Long";
      };
    }
    if (value.has(2)) {
      return "Boolean";
    }
    if (value.has(4)) {
      return "Double";
    }
    if (value.has(3)) {
      return switch (meaning) {
        case TEXT -> "Text";
        case BLOB -> "Blob";
        case BYTESTRING -> "ShortBlob";
        case ATOM_CATEGORY -> "Category";
        case ATOM_LINK -> "Link";
        case GD_EMAIL -> "Email";
        case GD_IM -> "IMHandle";
        case GD_PHONENUMBER -> "PhoneNumber";
        case GD_POSTALADDRESS -> "PostalAddress";
        case BLOBKEY -> "BlobKey";
        case ENTITY_PROTO -> "EmbeddedEntity";
        default -> "String";
      };
    }
    if (value.has(5)) {
      return "GeoPt";
    }
    if (value.has(8)) {
      return "User";
    }
    if (value.has(12)) {
      return "Key";
    }
    return meaning == EMPTY_LIST ? "empty list" : "null";
  }

  boolean editable() {
    return EDITABLE.contains(type);
  }

  /** The value as text, as the console shows it (long values cut, bytes as hex). */
  String display() {
    String shown =
        switch (type) {
          case "Long", "Rating" -> Long.toString(value.bits(1));
          case "Date" -> instant(value.bits(1)).toString();
          case "Boolean" -> Boolean.toString(value.bool(2));
          case "Double" -> Double.toString(value.doubleValue(4));
          case "Blob", "ShortBlob", "EmbeddedEntity" -> {
            byte[] bytes = value.bytes(3);
            yield bytes.length
                + " bytes"
                + (bytes.length == 0
                    ? ""
                    : ": "
                        + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 32))
                        + (bytes.length > 32 ? "..." : ""));
          }
          case "GeoPt" -> value.group(5).doubleValue(6) + ", " + value.group(5).doubleValue(7);
          case "User" -> value.group(8).string(9);
          case "Key" -> referenceValue(value.group(12));
          case "null", "empty list" -> "";
          default -> value.string(3);
        };
    return shown.length() > SHOWN_CHARACTERS
        ? shown.substring(0, SHOWN_CHARACTERS) + "... (" + shown.length() + " characters)"
        : shown;
  }

  /** The value as an edit form shows it: whole, not cut; "" where it cannot be edited. */
  String editText() {
    return switch (type) {
      case "Long", "Rating" -> Long.toString(value.bits(1));
      case "Date" -> instant(value.bits(1)).toString();
      case "Boolean" -> Boolean.toString(value.bool(2));
      case "Double" -> Double.toString(value.doubleValue(4));
      case "String", "Text", "Email", "Link", "Category", "PhoneNumber", "PostalAddress" ->
          value.string(3);
      default -> "";
    };
  }

  /** Microseconds since the epoch as an instant (any long: no overflow). */
  static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  private static String referenceValue(ProtoMessage reference) {
    StringBuilder path = new StringBuilder();
    for (ProtoMessage element : reference.groups(14)) {
      if (path.length() > 0) {
        path.append('/');
      }
      path.append(new EntityKey.Element(element.string(15), element.bits(16), element.string(17)));
    }
    return path.toString();
  }

  /** The meaning a value of an editable or filterable {@code type} is stored with. */
  static int meaningOf(String type) {
    return switch (type) {
      case "Text" -> TEXT;
      case "Date" -> GD_WHEN;
      case "Rating" -> GD_RATING;
      case "Email" -> GD_EMAIL;
      case "Link" -> ATOM_LINK;
      case "Category" -> ATOM_CATEGORY;
      case "PhoneNumber" -> GD_PHONENUMBER;
      case "PostalAddress" -> GD_POSTALADDRESS;
      default -> NO_MEANING;
    };
  }

  /**
   * A {@code PropertyValue} message of {@code type} (one of {@link #EDITABLE}) from the text a
   * developer typed.
   *
   * @throws IllegalArgumentException naming what the text should have been
   */
  static byte[] encode(String type, String text) {
    ProtoWriter out = new ProtoWriter();
    switch (type) {
      case "Long" -> out.varint(1, parseLong(text));
      case "Rating" -> {
        long rating = parseLong(text);
        if (rating < 0 || rating > 100) {
          throw new IllegalArgumentException("a Rating is a whole number from 0 to 100");
        }
        out.varint(1, rating);
      }
      case "Date" -> {
        try {
          Instant instant = Instant.parse(text.trim());
          out.varint(
              1,
              Math.multiplyExact(instant.getEpochSecond(), 1_000_000L) + instant.getNano() / 1000);
        } catch (DateTimeParseException | ArithmeticException e) {
          throw new IllegalArgumentException(
              "a Date is an ISO-8601 instant, e.g. 2024-05-01T12:30:00Z");
        }
      }
      case "Boolean" -> {
        String b = text.trim().toLowerCase(Locale.ROOT);
        if (!b.equals("true") && !b.equals("false")) {
          throw new IllegalArgumentException("a Boolean is true or false");
        }
        out.bool(2, b.equals("true"));
      }
      case "Double" -> {
        try {
          out.doubleValue(4, Double.parseDouble(text.trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("a Double is a number, e.g. 3.25");
        }
      }
      case "String", "Text", "Email", "Link", "Category", "PhoneNumber", "PostalAddress" ->
          out.bytes(3, text.getBytes(StandardCharsets.UTF_8));
      case "null" -> {
        // an empty PropertyValue
      }
      default -> throw new IllegalArgumentException("a " + type + " cannot be written here");
    }
    return out.toByteArray();
  }

  private static long parseLong(String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("a Long is a whole number, e.g. 42");
    }
  }
}
