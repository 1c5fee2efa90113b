// The frame the application forms share (/teamApply, /apiApply): heading, what it is for, the fields, the submit
// button, the server's answer, and what happens next once sent.
import type { ReactNode } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Box, Button, Field, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { Link } from 'wouter';
import { translateNotice } from '../../notices';

export const PHONE = /^1\d{10}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function ApplyShell(props: {
  title: ReactNode;
  intro: ReactNode;
  /** shown instead of the form once the application was sent */
  done: ReactNode | null;
  error: Error | null;
  valid: boolean;
  busy: boolean;
  onSubmit: () => void;
  testId: string;
  children: ReactNode;
}) {
  const { i18n } = useLingui();
  return (
    <Box
      maxW="2xl"
      mx="auto"
      mt={{ base: '4', md: '10' }}
      bg="panel"
      borderWidth="1px"
      borderRadius="xl"
      p={{ base: '6', md: '8' }}
      data-testid={props.testId}
    >
      <Heading as="h2" size="lg" mb="2">
        {props.title}
      </Heading>
      <Text color="fg.muted" mb="6">
        {props.intro}
      </Text>
      {props.done ? (
        <Stack gap="4" data-testid={`${props.testId}-done`}>
          <Alert.Root status="success">
            <Alert.Indicator />
            <Alert.Title>{props.done}</Alert.Title>
          </Alert.Root>
          <Link href="/" asChild>
            <Button as="a" variant="outline" alignSelf="flex-start">
              <Trans>返回工作台</Trans>
            </Button>
          </Link>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (props.valid) props.onSubmit();
          }}
        >
          <Stack gap="4">
            {props.error ? (
              <Alert.Root status="error" data-testid={`${props.testId}-error`}>
                <Alert.Indicator />
                <Alert.Title>{translateNotice(i18n, props.error.message)}</Alert.Title>
              </Alert.Root>
            ) : null}
            {props.children}
            <Button
              type="submit"
              colorPalette="blue"
              disabled={!props.valid}
              loading={props.busy}
              alignSelf="flex-start"
              data-testid={`${props.testId}-submit`}
            >
              <Trans>提交申请</Trans>
            </Button>
          </Stack>
        </form>
      )}
    </Box>
  );
}

/** One text field of an application form. */
export function TextField(props: {
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  invalid?: boolean;
  maxLength: number;
  type?: string;
  inputMode?: 'tel' | 'numeric';
  testId?: string;
}) {
  return (
    <Field.Root required={props.required} invalid={props.invalid}>
      <Field.Label>
        {props.label}
        {props.required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        maxLength={props.maxLength}
        type={props.type}
        inputMode={props.inputMode}
        data-testid={props.testId}
      />
    </Field.Root>
  );
}
