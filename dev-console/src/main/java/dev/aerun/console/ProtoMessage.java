package dev.aerun.console;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A protobuf message read field by field in the wire format, every field kept in its order (unknown
 * ones too), so that a message can be read, one field changed, and written back byte for byte
 * otherwise: how the console reads and edits the Datastore's and the task queue's messages without
 * a protobuf library on the runtime's class path. Groups (wire types 3/4, which datastore_v3 uses)
 * are read into nested messages; length-delimited fields stay bytes until asked for as a message.
 * Immutable.
 */
final class ProtoMessage {
  /** The wire types. */
  static final int VARINT = 0;

  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int START_GROUP = 3;
  static final int END_GROUP = 4;
  static final int FIXED32 = 5;

  /**
   * One field as read.
   *
   * @param number the field number
   * @param wireType its wire type
   * @param bits the value of a varint, fixed64 or fixed32 field
   * @param bytes the value of a length-delimited field, else null
   * @param group the value of a group, else null
   */
  record Field(int number, int wireType, long bits, byte[] bytes, ProtoMessage group) {}

  private static final ProtoMessage EMPTY = new ProtoMessage(List.of());

  private final List<Field> fields;

  ProtoMessage(List<Field> fields) {
    this.fields = Collections.unmodifiableList(fields);
  }

  static ProtoMessage empty() {
    return EMPTY;
  }

  /**
   * Reads {@code bytes}.
   *
   * @throws IllegalArgumentException when they are not a well-formed message
   */
  static ProtoMessage parse(byte[] bytes) {
    Reader in = new Reader(bytes);
    ProtoMessage message = in.message(-1);
    if (in.at != bytes.length) {
      throw new IllegalArgumentException("an end-group tag outside any group");
    }
    return message;
  }

  List<Field> fields() {
    return fields;
  }

  boolean has(int number) {
    for (Field f : fields) {
      if (f.number() == number) {
        return true;
      }
    }
    return false;
  }

  private Field last(int number) {
    Field found = null;
    for (Field f : fields) {
      if (f.number() == number) {
        found = f;
      }
    }
    return found;
  }

  /** A varint, fixed64 or fixed32 field's value; 0 when absent. */
  long bits(int number) {
    Field f = last(number);
    return f == null || f.bytes() != null || f.group() != null ? 0 : f.bits();
  }

  boolean bool(int number) {
    return bits(number) != 0;
  }

  double doubleValue(int number) {
    return Double.longBitsToDouble(bits(number));
  }

  /** A length-delimited field's bytes; empty when absent. */
  byte[] bytes(int number) {
    Field f = last(number);
    return f == null || f.bytes() == null ? new byte[0] : f.bytes();
  }

  /** A length-delimited field as UTF-8 text; "" when absent. */
  String string(int number) {
    return new String(bytes(number), StandardCharsets.UTF_8);
  }

  /** Every value of a repeated length-delimited field, as UTF-8 text. */
  List<String> strings(int number) {
    List<String> values = new ArrayList<>();
    for (Field f : fields) {
      if (f.number() == number && f.bytes() != null) {
        values.add(new String(f.bytes(), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  /** A length-delimited field read as a message; empty when absent. */
  ProtoMessage message(int number) {
    Field f = last(number);
    return f == null || f.bytes() == null ? EMPTY : parse(f.bytes());
  }

  /** Every value of a repeated message field. */
  List<ProtoMessage> messages(int number) {
    List<ProtoMessage> values = new ArrayList<>();
    for (Field f : fields) {
      if (f.number() == number && f.bytes() != null) {
        values.add(parse(f.bytes()));
      }
    }
    return values;
  }

  /** A group field; empty when absent. */
  ProtoMessage group(int number) {
    Field f = last(number);
    return f == null || f.group() == null ? EMPTY : f.group();
  }

  /** Every value of a repeated group field. */
  List<ProtoMessage> groups(int number) {
    List<ProtoMessage> values = new ArrayList<>();
    for (Field f : fields) {
      if (f.number() == number && f.group() != null) {
        values.add(f.group());
      }
    }
    return values;
  }

  /** This message in the wire format: the fields as read, in their order. */
  byte[] toByteArray() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    write(out);
    return out.toByteArray();
  }

  private void write(ByteArrayOutputStream out) {
    for (Field f : fields) {
      ProtoWriter.key(out, f.number(), f.wireType());
      switch (f.wireType()) {
        case VARINT -> ProtoWriter.varint(out, f.bits());
        case FIXED64 -> ProtoWriter.fixed(out, f.bits(), 8);
        case FIXED32 -> ProtoWriter.fixed(out, f.bits(), 4);
        case LENGTH_DELIMITED -> {
          ProtoWriter.varint(out, f.bytes().length);
          out.writeBytes(f.bytes());
        }
        case START_GROUP -> {
          f.group().write(out);
          ProtoWriter.key(out, f.number(), END_GROUP);
        }
        default -> throw new IllegalStateException("wire type " + f.wireType());
      }
    }
  }

  /** Reads fields until the end, or until the end-group tag of {@code group}. */
  private static final class Reader {
    private final byte[] buffer;
    private int at;

    Reader(byte[] buffer) {
      this.buffer = buffer;
    }

    ProtoMessage message(int group) {
      List<Field> fields = new ArrayList<>();
      while (at < buffer.length) {
        long key = varint();
        int number = (int) (key >>> 3);
        int wireType = (int) (key & 7);
        if (number <= 0) {
          throw new IllegalArgumentException("field number " + number);
        }
        switch (wireType) {
          case VARINT -> fields.add(new Field(number, wireType, varint(), null, null));
          case FIXED64 -> fields.add(new Field(number, wireType, fixed(8), null, null));
          case FIXED32 -> fields.add(new Field(number, wireType, fixed(4), null, null));
          case LENGTH_DELIMITED -> {
            long length = varint();
            if (length < 0 || length > buffer.length - at) {
              throw new IllegalArgumentException("length " + length + " past the end");
            }
            byte[] value = new byte[(int) length];
            System.arraycopy(buffer, at, value, 0, value.length);
            at += value.length;
            fields.add(new Field(number, wireType, 0, value, null));
          }
          case START_GROUP -> fields.add(new Field(number, wireType, 0, null, message(number)));
          case END_GROUP -> {
            if (number != group) {
              throw new IllegalArgumentException("end of group " + number + " inside " + group);
            }
            return new ProtoMessage(fields);
          }
          default -> throw new IllegalArgumentException("wire type " + wireType);
        }
      }
      if (group != -1) {
        throw new IllegalArgumentException("group " + group + " not ended");
      }
      return new ProtoMessage(fields);
    }

    private long varint() {
      long value = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (at >= buffer.length) {
          throw new IllegalArgumentException("truncated varint");
        }
        int b = buffer[at++] & 0xff;
        value |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return value;
        }
      }
      throw new IllegalArgumentException("varint too long");
    }

    private long fixed(int size) {
      if (size > buffer.length - at) {
        throw new IllegalArgumentException("truncated field");
      }
      long value = 0;
      for (int i = 0; i < size; i++) {
        value |= (long) (buffer[at++] & 0xff) << (8 * i);
      }
      return value;
    }
  }
}
