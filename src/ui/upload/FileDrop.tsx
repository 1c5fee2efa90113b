// A file picker that also takes a dropped file: click, Enter or Space opens the picker; the chosen
// file's name and size are shown. Files whose extension is not accepted are refused here with a message
// (the server checks the content again).
import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { FileUp } from 'lucide-react';
import { Verbatim } from '../layout/Verbatim';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Whether the file's name ends with one of the accepted extensions (".docx,.txt"). */
export function accepts(accept: string, name: string): boolean {
  const ext = /\.[^.]+$/.exec(name.toLowerCase())?.[0];
  return (
    !!ext &&
    accept
      .split(',')
      .map((a) => a.trim().toLowerCase())
      .includes(ext)
  );
}

export interface FileDropProps {
  /** ".docx,.txt" */
  accept: string;
  title: string;
  hint: string;
  file: File | null;
  disabled?: boolean;
  onFile: (file: File) => void;
  testId: string;
}

export function FileDrop({ accept, title, hint, file, disabled, onFile, testId }: FileDropProps) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  const take = (f: File | undefined) => {
    if (!f || disabled) return;
    if (!accepts(accept, f.name)) {
      setRefused(f.name);
      return;
    }
    setRefused(null);
    onFile(f);
  };
  const open = () => {
    if (!disabled) input.current?.click();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    take(e.dataTransfer.files[0]);
  };

  return (
    <Stack gap="1" flex="1" minW="0">
      {/* named by what it shows (title, file or call to action, hint), so the visible words are in its name */}
      <Box
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled || undefined}
        onClick={open}
        onKeyDown={onKeyDown}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={over ? 'blue.solid' : file ? 'blue.muted' : 'border'}
        bg={over ? 'blue.subtle' : 'panel'}
        borderRadius="xl"
        p="5"
        cursor={disabled ? 'not-allowed' : 'pointer'}
        opacity={disabled ? 0.6 : 1}
        transition="background 0.15s, border-color 0.15s"
        _hover={disabled ? undefined : { borderColor: 'blue.solid' }}
        _focusVisible={{ outline: '2px solid', outlineColor: 'blue.solid', outlineOffset: '2px' }}
        data-testid={testId}
        data-over={over || undefined}
      >
        <Flex gap="3" align="center">
          <Box color={file ? 'blue.fg' : 'fg.muted'} flexShrink={0}>
            <FileUp size={28} />
          </Box>
          <Stack gap="0.5" minW="0">
            <Text fontWeight="medium">{title}</Text>
            {file ? (
              <Text fontSize="sm" color="fg" truncate data-testid={`${testId}-name`}>
                <Verbatim>{file.name}</Verbatim> · {formatBytes(file.size)}
              </Text>
            ) : (
              <Text fontSize="sm" color="fg.muted">
                <Trans>点击选择或拖放文件到这里</Trans>
              </Text>
            )}
            <Text fontSize="xs" color="fg.muted">
              {hint}
            </Text>
          </Stack>
        </Flex>
        <input
          ref={input}
          type="file"
          accept={accept}
          hidden
          aria-label={t`选择文件`}
          data-testid={`${testId}-input`}
          onChange={(e) => {
            take(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Box>
      {refused ? (
        <Text fontSize="sm" color="red.fg" role="alert" data-testid={`${testId}-refused`}>
          <Trans>
            不支持的文件类型：{refused}（支持 {accept}）
          </Trans>
        </Text>
      ) : null}
    </Stack>
  );
}
