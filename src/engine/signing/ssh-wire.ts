// SSH's wire encoding (RFC 4251 §5): uint32 big-endian lengths before strings and mpints. SSHSIG blobs, public
// key blobs and signatures are all built from it.

export class SshWireError extends Error {}

/** Reads SSH wire fields from a buffer in order; every read past the end throws SshWireError. */
export class SshReader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}

  raw(length: number): Buffer {
    if (length < 0 || this.offset + length > this.bytes.length) throw new SshWireError('truncated');
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  uint32(): number {
    return this.raw(4).readUInt32BE(0);
  }

  string(): Buffer {
    return this.raw(this.uint32());
  }

  text(): string {
    return this.string().toString('utf8');
  }

  /** An mpint's magnitude, without the sign byte SSH adds when the high bit is set; negatives are refused. */
  mpint(): Buffer {
    const value = this.string();
    if (value.length > 0 && (value[0] as number) & 0x80) throw new SshWireError('negative mpint');
    let start = 0;
    while (start < value.length && value[start] === 0) start += 1;
    return value.subarray(start);
  }

  done(): boolean {
    return this.offset === this.bytes.length;
  }
}

export function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
}

export function sshUint32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value, 0);
  return out;
}

/** An unsigned magnitude as an mpint: no leading zeros, and a zero byte first when the high bit is set. */
export function sshMpint(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length && magnitude[start] === 0) start += 1;
  const trimmed = magnitude.subarray(start);
  const body = trimmed.length > 0 && (trimmed[0] as number) & 0x80 ? Buffer.concat([Buffer.of(0), trimmed]) : trimmed;
  return sshString(body);
}
