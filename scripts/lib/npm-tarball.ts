// An npm package tarball (what `npm install <url>` reads): a gzipped ustar archive whose files sit
// under `package/`. Headers carry mtime 0, so the same sources make the same archive. Used by the
// widget's and the API client's builds.
import { gzipSync } from 'node:zlib';

/** A tar header block (ustar) for one regular file. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number) => header.write(text.slice(0, length), offset, 'utf8');
  put(name, 0, 100);
  put('0000644\0', 100, 8);
  put('0000000\0', 108, 8);
  put('0000000\0', 116, 8);
  put(`${size.toString(8).padStart(11, '0')}\0`, 124, 12);
  put('00000000000\0', 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return header;
}

/** `files`: paths inside the package (e.g. "package.json", "dist/index.js") and their bytes. */
export function npmTarball(files: Array<[string, Buffer]>): Buffer {
  const blocks = files.flatMap(([name, body]) => [tarHeader(`package/${name}`, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]), { level: 9 });
}
